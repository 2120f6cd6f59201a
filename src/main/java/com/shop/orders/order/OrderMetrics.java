package com.shop.orders.order;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;

/** Orders placed, paid and closed, and how late expired orders were closed. */
@ApplicationScoped
// Created at start, not at first use, so that its meters exist (at zero) before the first event.
@Startup
public class OrderMetrics {

    private final MeterRegistry registry;
    private final Timer placement;
    private final Timer closeLateness;
    // Registered up front, so that dashboards and alerts see zeros rather than no data; held, so that an order
    // does not look its meters up by name and tags (a new meter id each time) on the way.
    private final Counter placed;
    private final Counter paid;
    private final Map<CloseReason, Counter> closed = new EnumMap<>(CloseReason.class);

    public OrderMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.placement = Timer.builder("orders.placement")
                .description("Time to place an order: validation, insert and stock reservation")
                .publishPercentileHistogram()
                .register(registry);
        // Buckets up to 10 minutes (Micrometer's default stops at 30 s): a close by the sweep comes a minute or
        // more after the deadline, and a quantile cannot exceed the highest bucket, so an alert above 30 s
        // would never fire.
        this.closeLateness = Timer.builder("orders.close.lateness")
                .description("How long after its pay deadline an expired order was closed")
                .publishPercentileHistogram()
                .maximumExpectedValue(Duration.ofMinutes(10))
                .register(registry);
        this.placed = registry.counter("orders.placed");
        this.paid = registry.counter("orders.paid");
        for (CloseReason reason : CloseReason.values()) {
            closed.put(reason, registry.counter("orders.closed", "reason", reason.name()));
        }
    }

    public Timer.Sample startPlacement() {
        return Timer.start(registry);
    }

    public void placed(Timer.Sample sample) {
        sample.stop(placement);
        placed.increment();
    }

    public void paid() {
        paid.increment();
    }

    public void closed(CloseReason reason, Instant deadline, Instant closedAt) {
        closed.get(reason).increment();
        if (reason == CloseReason.EXPIRED) {
            Duration late = Duration.between(deadline, closedAt);
            closeLateness.record(late.isNegative() ? Duration.ZERO : late);
        }
    }
}
