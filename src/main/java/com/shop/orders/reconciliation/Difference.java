package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A stored difference. {@code settlement} is null while it waits for someone (flagged): CONFIRMED_PAID or REFUNDED
 * once the reconciliation settled it through the payment paths, RESOLVED once an admin did.
 */
public record Difference(long id, LocalDate billDate, DifferenceKind kind, String outTradeNo, Long orderId,
        String tradeNo, BigDecimal billAmount, BigDecimal recordedAmount, String detail, Instant foundAt,
        String settlement, Instant settledAt, String note) {

    public enum Settlement {
        CONFIRMED_PAID,
        REFUNDED,
        RESOLVED
    }
}
