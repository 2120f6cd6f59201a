package com.shop.orders.expiry;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.order.OrderCloser;
import com.shop.orders.order.OrderRepository;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * What a committed timeout message means. Normally the deadline has passed and the order is
 * closed. A message that arrives early was committed to beat the broker's check limit (a pay
 * window longer than the broker watches one message): the watch is re-armed, never cut short.
 */
@ApplicationScoped
public class ExpiryHandler {

    private static final Logger LOG = Logger.getLogger(ExpiryHandler.class);

    private final OrderCloser closer;
    private final OrderRepository orders;
    private final TimeoutWatch watch;
    private final MeterRegistry registry;

    public ExpiryHandler(OrderCloser closer, OrderRepository orders, TimeoutWatch watch, MeterRegistry registry) {
        this.closer = closer;
        this.orders = orders;
        this.watch = watch;
        this.registry = registry;
    }

    public Uni<Void> onTimeout(String orderNo) {
        return closer.closeIfOverdue(orderNo).chain(outcome -> {
            if (outcome != OrderCloser.Outcome.NOT_DUE) {
                return Uni.createFrom().voidItem();
            }
            return Panache.withSession(() -> orders.findByOrderNo(orderNo))
                    .chain(order -> watch.send(orderNo, order.payDeadline)
                            .invoke(() -> {
                                registry.counter("expiry.watch.rearmed").increment();
                                LOG.debugf("Watch of %s re-armed until %s", orderNo, order.payDeadline);
                            }));
        });
    }
}
