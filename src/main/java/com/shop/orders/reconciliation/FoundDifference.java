package com.shop.orders.reconciliation;

import java.math.BigDecimal;

/**
 * A difference the matcher found, before it is stored. {@code entryKey} names the bill row or the record it is
 * about, so that the same difference found again is recognised.
 */
public record FoundDifference(DifferenceKind kind, String outTradeNo, String entryKey, Long orderId, String tradeNo,
        BigDecimal billAmount, BigDecimal recordedAmount, String detail) {
}
