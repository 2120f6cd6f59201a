package com.shop.orders.refund;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A refund as admins see it. {@code failureCode} and {@code failureReason} are the wallet's, for a FAILED refund.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RefundView(long id, long orderId, String orderNo, BigDecimal amount, String reason, RefundCause cause,
        @Schema(description = "PENDING: the wallet's outcome not known yet (or to be sent when WeChat Pay's minute "
                + "between refunds of a payment is over); SUCCEEDED: the money went back; FAILED: refused or closed "
                + "for good, the amount can be refunded again; ABNORMAL: WeChat Pay took it but could not pay it back "
                + "to the buyer's account, not final: a person finishes it in WeChat Pay's merchant console, then it "
                + "ends SUCCEEDED or FAILED (its amount stays taken meanwhile)") RefundStatus status,
        String outRequestNo, Instant requestedAt, Instant completedAt, String failureCode,
        String failureReason, List<RefundRequest.Restock> restock) {

    static RefundView of(Refund refund, List<RestockLine> restock) {
        return new RefundView(refund.id, refund.orderId, refund.orderNo, refund.amount, refund.reason, refund.cause,
                refund.status, refund.outRequestNo, refund.requestedAt, refund.completedAt, refund.failureCode,
                refund.failureReason,
                restock.stream().map(line -> new RefundRequest.Restock(line.skuId, line.quantity)).toList());
    }
}
