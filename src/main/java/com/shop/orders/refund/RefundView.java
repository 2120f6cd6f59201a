package com.shop.orders.refund;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A refund as admins see it. {@code failureCode} and {@code failureReason} are Alipay's, for a FAILED refund.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RefundView(long id, long orderId, String orderNo, BigDecimal amount, String reason, RefundCause cause,
        RefundStatus status, String outRequestNo, Instant requestedAt, Instant completedAt, String failureCode,
        String failureReason, List<RefundRequest.Restock> restock) {

    static RefundView of(Refund refund, List<RestockLine> restock) {
        return new RefundView(refund.id, refund.orderId, refund.orderNo, refund.amount, refund.reason, refund.cause,
                refund.status, refund.outRequestNo, refund.requestedAt, refund.completedAt, refund.failureCode,
                refund.failureReason,
                restock.stream().map(line -> new RefundRequest.Restock(line.skuId, line.quantity)).toList());
    }
}
