package com.shop.orders.order;

import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

@ApplicationScoped
public class OrderMetrics {

    private final MeterRegistry registry;
    private final Timer placement;

    public OrderMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.placement = Timer.builder("orders.placement")
                .description("Time to place an order: validation, stock lock and insert")
                .publishPercentileHistogram()
                .register(registry);
    }

    public Timer.Sample startPlacement() {
        return Timer.start(registry);
    }

    public void placed(Timer.Sample sample) {
        sample.stop(placement);
        registry.counter("orders.created").increment();
    }

    public void paid() {
        registry.counter("orders.paid").increment();
    }

    public void closed(CloseReason reason, Instant deadline, Instant closedAt) {
        registry.counter("orders.cancelled", "reason", reason.name()).increment();
        if (reason == CloseReason.TIMEOUT) {
            Timer.builder("orders.cancel.lateness")
                    .description("How long after its pay deadline an unpaid order was closed")
                    .publishPercentileHistogram()
                    .register(registry)
                    .record(Duration.between(deadline, closedAt).isNegative() ? Duration.ZERO
                            : Duration.between(deadline, closedAt));
        }
    }
}
