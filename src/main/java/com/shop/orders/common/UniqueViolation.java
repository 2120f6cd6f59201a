package com.shop.orders.common;

/** Recognises a unique-key violation, however deeply Hibernate Reactive wrapped the driver's error. */
public final class UniqueViolation {

    private UniqueViolation() {
    }

    public static boolean isCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof org.hibernate.exception.ConstraintViolationException) {
                return true;
            }
            String message = t.getMessage();
            // MySQL/MariaDB error 1062
            if (message != null && message.contains("Duplicate entry")) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
