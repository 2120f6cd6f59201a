package com.shop.orders.payment;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Makes an order's trades unpayable at their wallets, or finds that one already has money. Fails (try again later)
 * when a wallet cannot tell; trades closed before that stay closed.
 */
@ApplicationScoped
public class TradeCloser {

    public enum Closure {
        /** No trade was ever opened: nothing to close at a wallet. */
        NO_TRADE,
        /** Every trade, or QR code nobody scanned, is closed: none can be paid. */
        CLOSED,
        /** A buyer paid meanwhile and the wallet gave the money back while voiding the trade. */
        REFUNDED,
        /** A wallet has the money: the order is PAID now and must not be closed. */
        PAID
    }

    /** What closing came to, and how many of the order's trades had a QR code then (see {@link #offeredSince}). */
    public record Closing(Closure closure, int offered) {
    }

    private final PaymentRepository payments;
    private final PaymentChannels channels;
    private final PaymentConfirmation confirmation;
    private final PaymentRefunds refunds;
    private final MeterRegistry registry;

    public TradeCloser(PaymentRepository payments, PaymentChannels channels, PaymentConfirmation confirmation,
            PaymentRefunds refunds, MeterRegistry registry) {
        this.payments = payments;
        this.channels = channels;
        this.confirmation = confirmation;
        this.refunds = refunds;
        this.registry = registry;
    }

    /** Closes every open trade of the order, one after the other, until one turns out paid. */
    public Uni<Closing> close(long orderId) {
        return Panache.withSession(() -> payments.ofOrder(orderId))
                .chain(trades -> closeFrom(open(trades, null), 0, trades.isEmpty() ? Closure.NO_TRADE : Closure.CLOSED)
                        .map(closure -> new Closing(closure, offered(trades))));
    }

    /**
     * Inside the transaction that closes the order (after its conditional update, so with the order's row locked):
     * whether a QR code was stored since {@link #close} counted {@code offered}. The closer must then not close yet:
     * that code was handed out and its trade must be closed first. A code stored later sees the order closed and is
     * voided by the payment request itself.
     */
    public Uni<Boolean> offeredSince(long orderId, int offered) {
        return payments.countOfferedLocked(orderId).map(now -> now > offered);
    }

    /** After another trade paid the order: closes the rest, so that nobody pays the order twice. */
    public Uni<Void> closeOthers(long orderId, String acceptedOutTradeNo) {
        return Panache.withSession(() -> payments.ofOrder(orderId))
                .chain(trades -> closeFrom(open(trades, acceptedOutTradeNo), 0, Closure.CLOSED))
                .replaceWithVoid();
    }

    private static List<Payment> open(List<Payment> trades, String except) {
        return trades.stream()
                .filter(trade -> trade.status == PaymentStatus.AWAITING_PAYMENT && !trade.outTradeNo.equals(except))
                .toList();
    }

    private static int offered(List<Payment> trades) {
        return (int) trades.stream().filter(trade -> trade.qrCode != null).count();
    }

    private Uni<Closure> closeFrom(List<Payment> open, int index, Closure sofar) {
        if (index == open.size()) {
            return Uni.createFrom().item(sofar);
        }
        return closeTrade(open.get(index)).chain(closure -> closure == Closure.PAID
                ? Uni.createFrom().item(Closure.PAID)
                : closeFrom(open, index + 1, closure == Closure.REFUNDED ? Closure.REFUNDED : sofar));
    }

    private Uni<Closure> closeTrade(Payment payment) {
        return closeAtWallet(payment).call(closure -> closure == Closure.CLOSED
                ? Panache.withTransaction(() -> payments.markClosed(payment.id))
                : Uni.createFrom().voidItem());
    }

    /** The trade's wallet closes it, or has its money (recorded now), or reversed it (its refund recorded now). */
    Uni<Closure> closeAtWallet(Payment payment) {
        return channels.of(payment.channel).close(payment.outTradeNo)
                .invoke(closing -> registry.counter("payments.trade_closes", "channel", payment.channel, "result",
                        closing.result().name()).increment())
                .onFailure().invoke(() -> registry.counter("payments.trade_closes", "channel", payment.channel,
                        "result", "FAILED").increment())
                .chain(closing -> switch (closing.result()) {
                    case CLOSED -> Uni.createFrom().item(Closure.CLOSED);
                    case REVERSED -> refunds.recordCancelRefund(payment).replaceWith(Closure.REFUNDED);
                    case PAID -> recordPayment(closing.trade());
                });
    }

    private Uni<Closure> recordPayment(Trade trade) {
        return confirmation.confirm(trade.paid(), PaymentConfirmation.Source.QUERY).map(outcome -> switch (outcome) {
            case PAID_NOW, ALREADY_PAID -> Closure.PAID;
            case REFUNDED, DUPLICATE -> Closure.REFUNDED;
            case AMOUNT_MISMATCH, UNKNOWN_ORDER -> throw new IllegalStateException(
                    "The wallet's payment of " + trade.outTradeNo() + " was not accepted (" + outcome + ")");
        });
    }
}
