package com.shop.orders.live;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.shop.orders.order.OrderTransition;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;

/**
 * Hands each order's transitions (announced here, or by another instance through {@code OrderTransitions})
 * to the streams following that order. Indexed by order, so that a transition costs a map lookup, not a
 * pass over every open stream.
 */
@ApplicationScoped
public class TransitionListeners {

    /** Transitions of one order from the moment it was created, buffered until its stream reads them. */
    public final class Listener implements AutoCloseable {

        private final long orderId;
        private final UnicastProcessor<OrderTransition> buffer = UnicastProcessor.create();

        private Listener(long orderId) {
            this.orderId = orderId;
        }

        public Multi<OrderTransition> transitions() {
            return buffer;
        }

        // Announcements of this instance and of others arrive on different threads.
        private synchronized void offer(OrderTransition transition) {
            buffer.onNext(transition);
        }

        @Override
        public void close() {
            listeners.computeIfPresent(orderId, (id, set) -> {
                set.remove(this);
                return set.isEmpty() ? null : set;
            });
            complete();
        }

        private synchronized void complete() {
            buffer.onComplete();
        }
    }

    private final Map<Long, Set<Listener>> listeners = new ConcurrentHashMap<>();

    public TransitionListeners(MeterRegistry registry) {
        Gauge.builder("orders.live.followed", listeners, Map::size)
                .description("Orders that at least one live status stream follows")
                .register(registry);
    }

    /** Starts listening now; close the listener when the stream ends. */
    public Listener listen(long orderId) {
        Listener listener = new Listener(orderId);
        // Atomic per order, like the removal in close(): a set being dropped is never added to.
        listeners.compute(orderId, (id, set) -> {
            Set<Listener> following = set != null ? set : ConcurrentHashMap.newKeySet();
            following.add(listener);
            return following;
        });
        return listener;
    }

    void onTransition(@Observes OrderTransition transition) {
        Set<Listener> following = listeners.get(transition.orderId());
        if (following != null) {
            following.forEach(listener -> listener.offer(transition));
        }
    }
}
