package com.shop.orders.payment;

import java.time.Instant;

/** Fired (CDI) when an order got its QR code: from now on the wallet may have money for it. */
public record PaymentOffered(long orderId, String orderNo, Instant createdAt, Instant payDeadline) {
}
