package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One row of the trade bill's details: a payment, or a refund of one.
 *
 * @param amount    a payment's order amount, a refund's amount (positive), in yuan
 * @param requestNo a refund's out_request_no (empty when Alipay has none, as for a cancel's refund)
 */
public record BillEntry(String tradeNo, String outTradeNo, Kind kind, BigDecimal amount, String requestNo,
        Instant finishedAt) {

    public enum Kind {
        PAYMENT,
        REFUND
    }
}
