package com.shop.orders.payment;

import java.time.Clock;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;

/** Asks the wallet about an order's trade and records a payment that the notify did not bring (lost or late). */
@ApplicationScoped
// Created at start, not at first use, so that its meters exist (at zero) before the first event.
@Startup
public class TradeQuery {

    private final PaymentChannel channel;
    private final PaymentConfirmation confirmation;
    private final Timer detection;
    private final Clock clock;

    public TradeQuery(PaymentChannel channel, PaymentConfirmation confirmation, MeterRegistry registry, Clock clock) {
        this.channel = channel;
        this.confirmation = confirmation;
        this.clock = clock;
        this.detection = Timer.builder("payments.lost_notify.detection")
                .description("Time from a payment to its discovery by a trade query (its notify was lost or late)")
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

    /** True when the wallet has the money and the payment is now recorded. */
    public Uni<Boolean> recordIfPaid(String orderNo) {
        return confirmIfPaid(orderNo).map(Confirmed::recordedPaid);
    }

    /**
     * Asks the wallet and hands a payment it reports to {@link PaymentConfirmation}, which pays a pending order, refunds
     * the money of a closed one, and does nothing for a payment recorded before.
     */
    public Uni<Confirmed> confirmIfPaid(String orderNo) {
        return channel.query(orderNo).chain(trade -> trade.isPaid()
                ? record(trade).map(outcome -> new Confirmed(trade, outcome))
                : Uni.createFrom().item(new Confirmed(trade, null)));
    }

    private Uni<PaymentConfirmation.Outcome> record(Trade trade) {
        return confirmation.confirm(trade.paid(), PaymentConfirmation.Source.QUERY)
                .invoke(outcome -> {
                    if (outcome == PaymentConfirmation.Outcome.PAID_NOW && trade.paidAt() != null) {
                        Duration delay = Duration.between(trade.paidAt(), clock.instant());
                        detection.record(delay.isNegative() ? Duration.ZERO : delay);
                    }
                });
    }
}
