package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A refund this service recorded: its number at the wallet (Alipay's out_request_no, WeChat's out_refund_no; null for
 * one Alipay made by itself on a cancel, which the bill lists with an empty one), amount, status (PENDING, SUCCEEDED,
 * FAILED) and when it completed.
 */
public record RecordedRefund(long id, String requestNo, BigDecimal amount, String status, Instant completedAt) {

    /** The request number as the bill writes it. */
    String billRequestNo() {
        return requestNo == null ? "" : requestNo;
    }

    boolean succeeded() {
        return "SUCCEEDED".equals(status);
    }
}
