package com.shop.orders.events;

import java.math.BigDecimal;
import java.time.Instant;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Published on topic {@code shop.events.refunded-topic}, keyed by order number, once per refund that Alipay made.
 * Delivery is at least once, like {@link OrderPaidEvent}: consumers dedupe by {@code refundId}.
 *
 * @param cause         REQUESTED (by an admin), LATE_PAYMENT (paid after the order had closed) or CANCELLED_TRADE
 * @param refundedTotal what the order's refunds have given back so far, this one included
 * @param full          whether the payment is now refunded in full
 */
// Written and read with Jackson outside REST: a native image needs its accessors registered.
@RegisterForReflection
public record OrderRefundedEvent(long orderId, String orderNo, String memberId, long refundId, String outRequestNo,
        BigDecimal amount, BigDecimal refundedTotal, boolean full, String cause, Instant refundedAt) {
}
