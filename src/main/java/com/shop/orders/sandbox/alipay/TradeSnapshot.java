package com.shop.orders.sandbox.alipay;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A trade as the sandbox holds it at one moment.
 *
 * @param tradeNo           Alipay's trade number, null until the buyer scans (or a cancel closes the QR)
 * @param notifyAttempts    notify POSTs sent so far, whatever their answer
 * @param notifyAcknowledged whether the merchant answered a notify with "success"
 * @param refunds           every refund, in the order they were made
 */
public record TradeSnapshot(
        String outTradeNo,
        String tradeNo,
        SandboxTradeStatus status,
        BigDecimal totalAmount,
        BigDecimal refundedAmount,
        String subject,
        String qrCode,
        String notifyUrl,
        Instant expiresAt,
        Instant scannedAt,
        Instant paidAt,
        int notifyAttempts,
        boolean notifyAcknowledged,
        List<RefundSnapshot> refunds) {

    /** The refund made under this out_request_no, if any. */
    public Optional<RefundSnapshot> refund(String requestNo) {
        return refunds.stream().filter(r -> r.requestNo().equals(requestNo)).findFirst();
    }
}
