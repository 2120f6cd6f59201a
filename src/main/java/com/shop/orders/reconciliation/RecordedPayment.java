package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What this service recorded of an order's money on one channel: the order (its number, status, total), its trade on
 * the channel, if a QR code was offered (status AWAITING_PAYMENT, PAID or REFUNDED; the trade numbers, amounts and
 * times), and the trade's refunds. {@code outTradeNo} is the trade's number at the wallet, as the bill names it.
 */
public record RecordedPayment(long orderId, String orderNo, String orderStatus, BigDecimal total,
        String paymentStatus, String tradeNo, BigDecimal paidAmount, Instant paidAt, BigDecimal refundAmount,
        Instant refundedAt, List<RecordedRefund> refunds, String outTradeNo) {

    /** A record of Alipay's numbering, whose trade is numbered as its order. */
    public RecordedPayment(long orderId, String orderNo, String orderStatus, BigDecimal total, String paymentStatus,
            String tradeNo, BigDecimal paidAmount, Instant paidAt, BigDecimal refundAmount, Instant refundedAt,
            List<RecordedRefund> refunds) {
        this(orderId, orderNo, orderStatus, total, paymentStatus, tradeNo, paidAmount, paidAt, refundAmount,
                refundedAt, refunds, orderNo);
    }

    RecordedPayment withRefunds(List<RecordedRefund> found) {
        return new RecordedPayment(orderId, orderNo, orderStatus, total, paymentStatus, tradeNo, paidAmount, paidAt,
                refundAmount, refundedAt, List.copyOf(found), outTradeNo);
    }

    /** The same record, its trade numbered {@code number} (an order with no trade on the channel has none yet). */
    RecordedPayment numbered(String number) {
        return new RecordedPayment(orderId, orderNo, orderStatus, total, paymentStatus, tradeNo, paidAmount, paidAt,
                refundAmount, refundedAt, refunds, number);
    }

    /** The refund the bill names by this number (empty: the one Alipay made on a cancel), if recorded. */
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
