package com.shop.orders.payment;


import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.payment.AlipayReplies.CancelResult;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Before an unpaid order is closed: makes sure that its Alipay trade can take no more money, or finds
 * that it already has. Fails (try again later) when Alipay cannot tell.
 */
@ApplicationScoped
public class TradeCloser {

    public enum Closure {
        /** No QR code was ever offered: nothing to close at Alipay. */
        NO_TRADE,
        /** The trade, or the QR code nobody scanned, is closed: it can no longer be paid. */
        CLOSED,
        /** The buyer paid meanwhile and Alipay gave the money back while voiding the trade. */
        REFUNDED,
        /** Alipay has the money: the order is PAID now and must not be closed. */
        PAID
    }

    private final PaymentRepository payments;
    private final AlipayGateway alipay;
    private final PaymentConfirmation confirmation;
    private final PaymentRefunds refunds;

    public TradeCloser(PaymentRepository payments, AlipayGateway alipay, PaymentConfirmation confirmation,
            PaymentRefunds refunds) {
        this.payments = payments;
        this.alipay = alipay;
        this.confirmation = confirmation;
        this.refunds = refunds;
    }

    public Uni<Closure> close(long orderId, String orderNo) {
        return Panache.withSession(() -> payments.findByOrderId(orderId))
                .chain(payment -> payment == null
                        ? Uni.createFrom().item(Closure.NO_TRADE)
                        : closeTrade(payment));
    }

    /**
     * Inside the transaction that closes the order (after its conditional update, so with the order's row
     * locked): whether a QR code was stored after {@link #close} found none. The closer must then not close
     * yet: the code was handed out and must be voided first.
     */
    public Uni<Boolean> offeredSince(long orderId) {
        return payments.existsForOrderLocked(orderId);
    }

    Uni<Closure> closeTrade(Payment payment) {
        return alipay.close(payment.orderNo).chain(result -> switch (result) {
            case CLOSED -> Uni.createFrom().item(Closure.CLOSED);
            // Never scanned, yet the QR code stays payable until it expires: void it.
            case NOT_EXIST -> voidQrCode(payment);
            // Closed already (expired at the deadline), or paid: the query tells.
            case NOT_CLOSABLE -> closedOrPaid(payment.orderNo);
        });
    }

    private Uni<Closure> voidQrCode(Payment payment) {
        return alipay.cancel(payment.orderNo).chain(result -> result == CancelResult.CLOSED
                ? Uni.createFrom().item(Closure.CLOSED)
                : recordRefund(payment));
    }

    private Uni<Closure> recordRefund(Payment payment) {
        return refunds.recordCancelRefund(payment).replaceWith(Closure.REFUNDED);
    }

    private Uni<Closure> closedOrPaid(String orderNo) {
        return alipay.query(orderNo).chain(trade -> switch (trade.status()) {
            case TRADE_SUCCESS, TRADE_FINISHED -> recordPayment(trade);
            case TRADE_CLOSED, NOT_EXIST -> Uni.createFrom().item(Closure.CLOSED);
            case WAIT_BUYER_PAY -> Uni.createFrom().failure(new IllegalStateException(
                    "Alipay refused to close the open trade of " + orderNo));
        });
    }

    private Uni<Closure> recordPayment(Trade trade) {
        return confirmation.confirm(trade.paid(), PaymentConfirmation.Source.QUERY).map(outcome -> switch (outcome) {
            case PAID_NOW, ALREADY_PAID -> Closure.PAID;
            case REFUNDED -> Closure.REFUNDED;
            case AMOUNT_MISMATCH, UNKNOWN_ORDER -> throw new IllegalStateException(
                    "Alipay's payment of " + trade.orderNo() + " was not accepted (" + outcome + ")");
        });
    }
}
