package com.shop.orders.sql;

/** Recognises a failed CHECK constraint, however deeply Hibernate Reactive or the SQL client wrapped it. */
public final class CheckViolation {

    private CheckViolation() {
    }

    /** A violation of the named CHECK constraint (MariaDB error 4025 names it in its message). */
    public static boolean isCause(Throwable failure, String constraint) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.contains("CONSTRAINT") && message.contains(constraint)
                    && message.contains("failed")) {
                return true;
            }
        }
        return false;
    }
}
