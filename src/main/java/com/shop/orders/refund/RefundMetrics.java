package com.shop.orders.refund;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * {@code refunds{cause,outcome}}: refunds made (succeeded), refused (failed), and attempts that did not learn the
 * outcome (pending); {@code refunds.pending} and {@code refunds.pending.oldest.seconds} as the settler last counted
 * them (every replica counts the same table), and {@code refunds.abnormal}: refunds stuck at the wallet until a person
 * acts (ABNORMAL), counted alike.
 */
@ApplicationScoped
// Created at start, so that the meters exist (at zero) before the first refund.
@Startup
public class RefundMetrics {

    private final MeterRegistry registry;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong oldestPendingSeconds = new AtomicLong();
    private final AtomicLong abnormal = new AtomicLong();

    public RefundMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("refunds.pending", pending, AtomicLong::get)
                .description("Refunds whose outcome at the wallet is not known yet").register(registry);
        Gauge.builder("refunds.pending.oldest.seconds", oldestPendingSeconds, AtomicLong::get)
                .description("Age of the oldest pending refund").register(registry);
        Gauge.builder("refunds.abnormal", abnormal, AtomicLong::get)
                .description("Refunds the wallet took but could not pay back (ABNORMAL): a person must act in its "
                        + "merchant console").register(registry);
        for (RefundCause cause : RefundCause.values()) {
            for (String outcome : new String[] { "succeeded", "failed", "pending", "abnormal" }) {
                counter(cause, outcome);
            }
        }
    }

    void completed(RefundCause cause, RefundStatus status) {
        counter(cause, status == RefundStatus.SUCCEEDED ? "succeeded" : "failed").increment();
    }

    void unknown(RefundCause cause) {
        counter(cause, "pending").increment();
    }

    /** A refund the service opened by itself (a late or a second payment), by the channel it goes back through. */
    void automatic(RefundCause cause, String channel) {
        registry.counter("refunds.automatic", "cause", cause.name(), "channel", channel).increment();
    }

    /** A refund that turned ABNORMAL. */
    void abnormal(RefundCause cause) {
        counter(cause, "abnormal").increment();
    }

    void pending(long count, long oldestSeconds, long abnormalCount) {
        pending.set(count);
        oldestPendingSeconds.set(oldestSeconds);
        abnormal.set(abnormalCount);
    }

    private Counter counter(RefundCause cause, String outcome) {
        return registry.counter("refunds", "cause", cause.name(), "outcome", outcome);
    }
}
