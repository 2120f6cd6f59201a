package com.shop.orders.events;

import java.math.BigDecimal;
import java.time.Instant;

/** Published once per order that moved from PENDING_PAYMENT to PAID. */
public record OrderPaidEvent(long orderId, String orderNo, String memberId, BigDecimal amount, String tradeNo,
        Instant paidAt, String source) {
}
