package com.shop.orders.events;

import java.math.BigDecimal;
import java.time.Instant;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Published on topic {@code shop.events.paid-topic}, keyed by order number, once per order that moved from
 * PENDING_PAYMENT to PAID. Delivery is at least once: after a crash between publishing and recording it,
 * or a relay whose claim ran out, the same event may arrive again. Consumers dedupe by {@code orderNo}.
 *
 * @param source where the payment became known: NOTIFY (Alipay's async notify) or QUERY (a trade query
 *        found it, the notify was lost or late)
 */
// Written and read with Jackson outside REST: a native image needs its accessors registered.
@RegisterForReflection
public record OrderPaidEvent(long orderId, String orderNo, String memberId, BigDecimal amount, String tradeNo,
        Instant paidAt, String source) {
}
