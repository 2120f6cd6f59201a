package com.shop.orders.payment;

public enum PaymentStatus {
    /** QR code offered, no money seen yet. */
    AWAITING_PAYMENT,
    PAID,
    /** All of the money went back (refunds of a paid order, or a payment that came after the order closed). */
    REFUNDED
}
