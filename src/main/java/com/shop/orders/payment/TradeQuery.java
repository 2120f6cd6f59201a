package com.shop.orders.payment;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;

/**
 * Asks the wallets about an order's open trades and records a payment that the notify did not bring (lost or late).
 */
@ApplicationScoped
// Created at start, not at first use, so that its meters exist (at zero) before the first event.
@Startup
public class TradeQuery {

    private final PaymentRepository payments;
    private final PaymentChannels channels;
    private final PaymentConfirmation confirmation;
    private final MeterRegistry registry;
    private final Clock clock;

    public TradeQuery(PaymentRepository payments, PaymentChannels channels, PaymentConfirmation confirmation,
            MeterRegistry registry, Clock clock) {
        this.payments = payments;
        this.channels = channels;
        this.confirmation = confirmation;
        this.registry = registry;
        this.clock = clock;
        channels.offered().forEach(channel -> detection(channel));
    }

    private Timer detection(String channel) {
        return Timer.builder("payments.lost_notify.detection")
                .description("Time from a payment to its discovery by a trade query (its notify was lost or late)")
                .tag("channel", channel)
                .publishPercentileHistogram()
                // Queries start a minute after placement and repeat for minutes (shop.expiry.query): the default
                // buckets stop at 30 s.
                .maximumExpectedValue(Duration.ofMinutes(15))
                .register(registry);
    }

    /** What a query found, and what the payment paths made of it: no outcome when the wallet has no payment. */
    public record Confirmed(Trade trade, PaymentConfirmation.Outcome outcome) {

        /** The wallet has the money and this service records it as paid (now or before). */
        public boolean recordedPaid() {
            return outcome == PaymentConfirmation.Outcome.PAID_NOW || outcome == PaymentConfirmation.Outcome.ALREADY_PAID;
        }
    }

    /**
     * True when a wallet has the money for one of the order's open trades and the order is now recorded paid. The
     * trades are asked one after the other, oldest first, until one is paid.
     */
    public Uni<Boolean> recordIfPaid(String orderNo) {
        return Panache.withSession(() -> payments.ofOrder(orderNo))
                .map(trades -> trades.stream().filter(trade -> trade.status == PaymentStatus.AWAITING_PAYMENT).toList())
                .chain(open -> firstPaid(open, 0));
    }

    private Uni<Boolean> firstPaid(List<Payment> open, int index) {
        if (index == open.size()) {
            return Uni.createFrom().item(Boolean.FALSE);
        }
        Payment trade = open.get(index);
        return confirmIfPaid(trade.channel, trade.outTradeNo)
                .chain(confirmed -> confirmed.recordedPaid() ? Uni.createFrom().item(Boolean.TRUE)
                        : firstPaid(open, index + 1));
    }

    /**
     * Asks the trade's wallet and hands a payment it reports to {@link PaymentConfirmation}, which pays a pending order,
     * refunds the money of a closed one (or of a second trade), and does nothing for a payment recorded before.
     */
    public Uni<Confirmed> confirmIfPaid(String channel, String outTradeNo) {
        return channels.of(channel).query(outTradeNo)
                .onItemOrFailure().invoke((trade, failure) -> registry.counter("payments.trade_queries",
                        "channel", channel, "result", failure != null ? "failed" : trade.isPaid() ? "paid" : "unpaid")
                        .increment())
                .chain(trade -> trade.isPaid()
                        ? record(channel, trade).map(outcome -> new Confirmed(trade, outcome))
                        : Uni.createFrom().item(new Confirmed(trade, null)));
    }

    private Uni<PaymentConfirmation.Outcome> record(String channel, Trade trade) {
        return confirmation.confirm(trade.paid(), PaymentConfirmation.Source.QUERY)
                .invoke(outcome -> {
                    if (outcome == PaymentConfirmation.Outcome.PAID_NOW && trade.paidAt() != null) {
                        Duration delay = Duration.between(trade.paidAt(), clock.instant());
                        detection(channel).record(delay.isNegative() ? Duration.ZERO : delay);
                    }
                });
    }
}
