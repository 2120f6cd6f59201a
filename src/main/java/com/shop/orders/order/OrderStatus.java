package com.shop.orders.order;

public enum OrderStatus {
    PENDING_PAYMENT,
    PAID,
    /** Paid, then refunded in full (a partial refund leaves the order PAID). */
    REFUNDED,
    CLOSED,
    SHIPPED,
    COMPLETED
}
