package com.shop.orders.sql;

/**
 * Recognises InnoDB's deadlock error (1213, "try restarting transaction"), however deeply it was wrapped: the
 * transaction was rolled back as a whole and may simply run again.
 */
public final class Deadlock {

    private Deadlock() {
    }

    public static boolean isCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            if (message != null && message.contains("Deadlock found when trying to get lock")) {
                return true;
            }
        }
        return false;
    }
}
