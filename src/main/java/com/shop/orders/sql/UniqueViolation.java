package com.shop.orders.sql;

/** Recognises a unique-key violation, however deeply Hibernate Reactive or the SQL client wrapped it. */
public final class UniqueViolation {

    private UniqueViolation() {
    }

    public static boolean isCause(Throwable failure) {
        return isCause(failure, "");
    }

    /** A violation of the named unique key (MariaDB error 1062 names it in its message). */
    public static boolean isCause(Throwable failure, String key) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.contains("Duplicate entry") && message.contains(key)) {
                return true;
            }
            if (key.isEmpty() && t instanceof org.hibernate.exception.ConstraintViolationException) {
                return true;
            }
        }
        return false;
    }
}
