package com.shop.orders.payment;

public enum PaymentStatus {
    /** QR code offered, no money seen yet. */
    AWAITING_PAYMENT,
    PAID,
    /** Paid for an order that had already been closed, and given back. */
    REFUNDED
}
