package com.shop.orders.expiry;

import java.time.Instant;
import java.util.stream.Collectors;
import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.order.OrderCloser;
import com.shop.orders.order.OrderRepository;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Fallback for orders whose watch could not be started or was lost (broker down): closes
 * pending orders past their deadline plus a grace period. Several instances may sweep at once;
 * the conditional close lets exactly one of them win each order.
 */
@ApplicationScoped
public class ExpirySweep {

    private static final Logger LOG = Logger.getLogger(ExpirySweep.class);

    private final OrderRepository orders;
    private final OrderCloser closer;
    private final ExpiryConfig config;
    private final MeterRegistry registry;
    private final Clock clock;

    public ExpirySweep(OrderRepository orders, OrderCloser closer, ExpiryConfig config, MeterRegistry registry,
            Clock clock) {
        this.orders = orders;
        this.closer = closer;
        this.config = config;
        this.registry = registry;
        this.clock = clock;
    }

    @Scheduled(identity = "expiry-sweep", every = "${expiry.sweep.every}", delayed = "${expiry.sweep.every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return sweep().onFailure().invoke(e -> LOG.warnf("Expiry sweep failed: %s", e.toString()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** One batch; answers how many orders it closed. */
    public Uni<Integer> sweep() {
        return sweepOverdueBefore(clock.instant().minus(config.sweep().grace()));
    }

    /** Closes pending orders whose deadline passed before {@code cutoff}, one batch. */
    Uni<Integer> sweepOverdueBefore(Instant cutoff) {
        return Panache.withSession(() -> orders.findOverdueOrderNos(cutoff, config.sweep().batch()))
                .chain(orderNos -> Multi.createFrom().iterable(orderNos)
                        .onItem().transformToUniAndConcatenate(orderNo -> closer.closeIfOverdue(orderNo)
                                .onFailure().invoke(e -> LOG.warnf("Sweep could not close %s: %s", orderNo, e.toString()))
                                .onFailure().recoverWithNull())
                        .filter(outcome -> outcome == OrderCloser.Outcome.CLOSED)
                        .collect().with(Collectors.counting()))
                .map(Long::intValue)
                .invoke(closed -> {
                    if (closed > 0) {
                        registry.counter("expiry.sweep.closed").increment(closed);
                        LOG.infof("Sweep closed %d overdue orders", closed);
                    }
                });
    }
}
