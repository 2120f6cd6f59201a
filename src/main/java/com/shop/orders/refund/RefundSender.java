package com.shop.orders.refund;

import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.order.OrderRepository;
import com.shop.orders.payment.Payment;
import com.shop.orders.payment.PaymentChannels;
import com.shop.orders.payment.PaymentRepository;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.RefundFinding;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The one way a refund reaches the wallet: its refund call with the refund's own request number, and its
 * answer recorded. Sent again with the same number it refunds nothing twice, so an answer that never arrived is
 * retried safely; the refund query first tells whether that is needed.
 */
@ApplicationScoped
public class RefundSender {

    private final PaymentRepository payments;
    private final PaymentChannels channels;
    private final RefundOutcomes outcomes;
    private final RefundRepository refunds;
    private final OrderRepository orders;
    private final Clock clock;

    public RefundSender(PaymentRepository payments, PaymentChannels channels, RefundOutcomes outcomes,
            RefundRepository refunds, OrderRepository orders, Clock clock) {
        this.payments = payments;
        this.channels = channels;
        this.outcomes = outcomes;
        this.refunds = refunds;
        this.orders = orders;
        this.clock = clock;
    }

    /** Sends the refund and records the answer; completes when the outcome (or that it is unknown) is recorded. */
    public Uni<Void> send(Refund refund) {
        return tradeOf(refund)
                .chain(trade -> channels.of(trade.channel).refund(trade.outTradeNo, trade.paidAmount(), refund.amount,
                        refund.outRequestNo))
                .onItemOrFailure().transformToUni((answer, failure) -> failure != null
                        ? outcomes.unknown(refund, failure)
                        : answered(refund, answer));
    }

    /**
     * A refund whose last attempt told nothing, that is due to be sent, or that is stuck (ABNORMAL): asks the wallet
     * what became of it, and sends it (again, with the same number) only if the wallet does not have it.
     */
    public Uni<Void> settle(Refund refund) {
        return tradeOf(refund)
                .chain(trade -> channels.of(trade.channel).findRefund(trade.outTradeNo, refund.outRequestNo))
                .onItemOrFailure().transformToUni((found, failure) -> failure != null
                        ? outcomes.unknown(refund, failure)
                        : found(refund, found));
    }

    private Uni<Void> answered(Refund refund, RefundAnswer answer) {
        return switch (answer.outcome()) {
            case DONE -> outcomes.made(refund.id);
            case REFUSED -> outcomes.refused(refund, answer);
            case STUCK -> outcomes.abnormal(refund, answer.reason());
        };
    }

    private Uni<Void> found(Refund refund, RefundFinding found) {
        return switch (found) {
            case MADE -> outcomes.made(refund.id);
            case CLOSED -> outcomes.refused(refund, RefundOutcomes.CLOSED);
            case ABNORMAL -> outcomes.abnormal(refund, RefundOutcomes.ABNORMAL_REASON);
            case NOT_TAKEN -> sendWhenDue(refund);
        };
    }

    /**
     * A refund the wallet does not have: sent now, unless the wallet's least interval after the trade's latest other
     * refund sent is not over (that one went out late): then sent when it is, so that the wallet is not asked too
     * soon (WeChat would answer 429 and make nothing). Refunds still waiting for their time do not count: they come
     * after this one.
     */
    private Uni<Void> sendWhenDue(Refund refund) {
        Instant now = clock.instant();
        // Under the order's lock (taken first, as everywhere): the settlers of all replicas send a trade's refunds
        // one after the other, so two claimed in one pass do not both go now and make WeChat refuse one.
        return tradeOf(refund)
                .map(trade -> channels.of(trade.channel).refundLimits().interval())
                .chain(interval -> Panache.withTransaction(() -> orders.findForUpdate(refund.orderId)
                        .chain(() -> refunds.lastSentOfTradeBut(refund.outTradeNo, refund.id, now))
                        .chain(last -> last != null && last.plus(interval).isAfter(now)
                                ? refunds.sendLater(refund.id, last.plus(interval)).replaceWith(Boolean.FALSE)
                                : refunds.markSent(refund.id, now).replaceWith(Boolean.TRUE))))
                .chain(due -> due ? send(refund) : Uni.createFrom().voidItem());
    }

    private Uni<Payment> tradeOf(Refund refund) {
        return Panache.withSession(() -> payments.findByOutTradeNo(refund.outTradeNo))
                .onItem().ifNull().failWith(() -> new IllegalStateException("Refund " + refund.outRequestNo
                        + " names trade " + refund.outTradeNo + ", which is not recorded"));
    }
}
