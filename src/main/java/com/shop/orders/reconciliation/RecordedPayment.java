package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * What this service recorded of an order's money: the order (its number, status, total) and its payment, if
 * a QR code was offered (status AWAITING_PAYMENT, PAID or REFUNDED; the trade number, amounts and times).
 */
public record RecordedPayment(long orderId, String orderNo, String orderStatus, BigDecimal total,
        String paymentStatus, String tradeNo, BigDecimal paidAmount, Instant paidAt, BigDecimal refundAmount,
        Instant refundedAt) {

    /** The money came in: paid, or paid and given back. */
    boolean paid() {
        return "PAID".equals(paymentStatus) || "REFUNDED".equals(paymentStatus);
    }

    boolean refunded() {
        return "REFUNDED".equals(paymentStatus);
    }

    /**
     * When the money came in as far as this service knows: the payment's time, or for money that was given back
     * because the order had closed (recorded as refunded only), the refund's.
     */
    Instant moneyInAt() {
        return paidAt != null ? paidAt : refundedAt;
    }
}
