package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What this service recorded of an order's money: the order (its number, status, total), its payment, if a QR code
 * was offered (status AWAITING_PAYMENT, PAID or REFUNDED; the trade number, amounts and times), and its refunds.
 */
public record RecordedPayment(long orderId, String orderNo, String orderStatus, BigDecimal total,
        String paymentStatus, String tradeNo, BigDecimal paidAmount, Instant paidAt, BigDecimal refundAmount,
        Instant refundedAt, List<RecordedRefund> refunds) {

    RecordedPayment withRefunds(List<RecordedRefund> found) {
        return new RecordedPayment(orderId, orderNo, orderStatus, total, paymentStatus, tradeNo, paidAmount, paidAt,
                refundAmount, refundedAt, List.copyOf(found));
    }

    /** The refund the bill names by this request number (empty: the one Alipay made on a cancel), if recorded. */
    Optional<RecordedRefund> refund(String billRequestNo) {
        return refunds.stream().filter(refund -> refund.billRequestNo().equals(billRequestNo)).findFirst();
    }

    /** The money came in: paid, or paid and given back. */
    boolean paid() {
        return "PAID".equals(paymentStatus) || "REFUNDED".equals(paymentStatus);
    }

    /**
     * When the money came in as far as this service knows: the payment's time, or for money that was given back
     * because the order had closed (recorded as refunded only), the refund's.
     */
    Instant moneyInAt() {
        return paidAt != null ? paidAt : refundedAt;
    }
}
