package com.shop.orders.expiry;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.Semaphore;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.common.MutinyBridge;
import com.shop.orders.payment.TradeQuery;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;

/**
 * Looks for a payment whose notify was lost: when an order's query budget says a query is due, asks Alipay
 * and records the payment it finds. Started by a check-back and never waited for, so that a slow Alipay
 * or Redis never delays an answer to the broker; the next check-back after it sees the order decided.
 */
@ApplicationScoped
// Created at start, not at first use, so that its meters exist (at zero) before the first event.
@Startup
public class PaymentProbe {

    private static final Logger LOG = Logger.getLogger(PaymentProbe.class);
    /** What a probe can come to; registered up front, so that dashboards see zeros rather than no data. */
    private static final List<String> RESULTS = List.of("paid", "unpaid", "not_due", "busy", "error");

    private final QueryBudget budget;
    private final TradeQuery trades;
    private final MeterRegistry registry;
    private final Semaphore inFlight;

    public PaymentProbe(QueryBudget budget, TradeQuery trades, ExpiryConfig config, MeterRegistry registry) {
        this.budget = budget;
        this.trades = trades;
        this.registry = registry;
        this.inFlight = new Semaphore(config.query().concurrency());
        for (String result : RESULTS) {
            registry.counter("expiry.probes", "result", result);
        }
    }

    /** Starts a probe of the order if one could be due; returns at once. */
    void probeIfDue(ExpiryMessage message, Instant now) {
        if (!budget.rule().isOldEnough(message.createdAt(), now)) {
            return;
        }
        if (!inFlight.tryAcquire()) {
            count("busy");
            return;
        }
        try {
            MutinyBridge.start(() -> probe(message, now).onTermination().invoke(inFlight::release),
                    this::count,
                    failure -> {
                        count("error");
                        LOG.debugf("Probe of %s failed: %s", message.orderNo(), failure.toString());
                    });
        } catch (RuntimeException e) {
            inFlight.release();
            throw e;
        }
    }

    private Uni<String> probe(ExpiryMessage message, Instant now) {
        return budget.claim(message.orderNo(), message.createdAt(), now)
                .chain(due -> due
                        ? trades.recordIfPaid(message.orderNo()).map(paid -> paid ? "paid" : "unpaid")
                        : Uni.createFrom().item("not_due"));
    }

    private void count(String result) {
        registry.counter("expiry.probes", "result", result).increment();
    }
}
