package com.shop.orders.expiry;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.closing.OrderCloser;
import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.tracing.TraceContexts;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * What a committed expiry message means. Normally the deadline has passed and the order is closed. A
 * message that arrives early was committed to beat the broker's check limit (a pay window longer than the
 * broker watches one message): the order gets a new expiry message, and is never closed early.
 */
@ApplicationScoped
public class ExpiryHandler {

    private static final Logger LOG = Logger.getLogger(ExpiryHandler.class);

    private final OrderCloser closer;
    private final OrderRepository orders;
    private final ExpiryMessages messages;
    private final OrderEvents events;
    private final MeterRegistry registry;

    public ExpiryHandler(OrderCloser closer, OrderRepository orders, ExpiryMessages messages, OrderEvents events,
            MeterRegistry registry) {
        this.closer = closer;
        this.orders = orders;
        this.messages = messages;
        this.events = events;
        this.registry = registry;
    }

    public Uni<Void> onExpiry(String orderNo) {
        return closer.closeIfOverdue(orderNo, OrderCloser.By.EXPIRY_MESSAGE).chain(outcome -> outcome == OrderCloser.Outcome.NOT_DUE
                ? renew(orderNo)
                : Uni.createFrom().voidItem());
    }

    private Uni<Void> renew(String orderNo) {
        return Panache.withSession(() -> orders.findByOrderNo(orderNo))
                .chain(order -> messages.send(order.id, new ExpiryMessage(orderNo, order.createdAt, order.payDeadline,
                        TraceContexts.parse(order.traceParent))))
                .invoke(() -> {
                    registry.counter("expiry.messages.renewed").increment();
                    events.note(orderNo, OrderEvents.Kind.EXPIRY_MESSAGE, "renewed",
                            "the broker's check limit came before the deadline");
                    LOG.debugf("Expiry message of %s renewed", orderNo);
                });
    }
}
