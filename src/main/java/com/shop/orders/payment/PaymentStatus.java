package com.shop.orders.payment;

public enum PaymentStatus {
    /** QR code offered (or being asked for), no money seen yet. */
    AWAITING_PAYMENT,
    /** Closed at the wallet unpaid: it can take no money. */
    CLOSED,
    PAID,
    /**
     * All of the money went back (refunds of a paid order, a payment that came after the order closed, or one on a
     * second trade of an order paid already).
     */
    REFUNDED
}
