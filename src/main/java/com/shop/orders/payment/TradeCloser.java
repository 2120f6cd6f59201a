package com.shop.orders.payment;


import jakarta.enterprise.context.ApplicationScoped;


import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Before an unpaid order is closed: makes sure that its trade can take no more money, or finds that it already has.
 * Fails (try again later) when the wallet cannot tell.
 */
@ApplicationScoped
public class TradeCloser {

    public enum Closure {
        /** No QR code was ever offered: nothing to close at the wallet. */
        NO_TRADE,
        /** The trade, or the QR code nobody scanned, is closed: it can no longer be paid. */
        CLOSED,
        /** The buyer paid meanwhile and the wallet gave the money back while voiding the trade. */
        REFUNDED,
        /** The wallet has the money: the order is PAID now and must not be closed. */
        PAID
    }

    private final PaymentRepository payments;
    private final PaymentChannel channel;
    private final PaymentConfirmation confirmation;
    private final PaymentRefunds refunds;

    public TradeCloser(PaymentRepository payments, PaymentChannel channel, PaymentConfirmation confirmation,
            PaymentRefunds refunds) {
        this.payments = payments;
        this.channel = channel;
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
        return channel.close(payment.orderNo).chain(closing -> switch (closing.result()) {
            case CLOSED -> Uni.createFrom().item(Closure.CLOSED);
            case REVERSED -> refunds.recordCancelRefund(payment).replaceWith(Closure.REFUNDED);
            case PAID -> recordPayment(closing.trade());
        });
    }

    private Uni<Closure> recordPayment(Trade trade) {
        return confirmation.confirm(trade.paid(), PaymentConfirmation.Source.QUERY).map(outcome -> switch (outcome) {
            case PAID_NOW, ALREADY_PAID -> Closure.PAID;
            case REFUNDED -> Closure.REFUNDED;
            case AMOUNT_MISMATCH, UNKNOWN_ORDER -> throw new IllegalStateException(
                    "The wallet's payment of " + trade.outTradeNo() + " was not accepted (" + outcome + ")");
        });
    }
}
