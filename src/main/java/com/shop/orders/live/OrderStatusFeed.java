package com.shop.orders.live;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.live.TransitionListeners.Listener;
import com.shop.orders.order.OrderNotFoundException;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.resilience.MutinyBridge;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * An order's status as it changes: first its status now, then its decision (paid or closed), then the end.
 * The decision comes from the transitions announced on this and every other instance; a periodic read of the
 * order covers an announcement that was lost, since announcements are best effort.
 */
@ApplicationScoped
public class OrderStatusFeed {

    private final TransitionListeners listeners;
    private final OrderRepository orders;
    private final Ticks ticks;
    private final LiveStatusConfig config;

    public OrderStatusFeed(TransitionListeners listeners, OrderRepository orders, Ticks ticks, LiveStatusConfig config) {
        this.listeners = listeners;
        this.orders = orders;
        this.ticks = ticks;
        this.config = config;
    }

    /** Listens before it reads: a transition between the read and the first announcement is not missed. */
    public Multi<OrderStatusEvent> follow(long orderId, String memberId) {
        return Multi.createFrom().resource(() -> listeners.listen(orderId),
                listener -> read(orderId, memberId)
                        .onItem().ifNull().failWith(() -> new OrderNotFoundException(orderId))
                        .onItem().transformToMulti(now -> now.isDecided()
                                ? Multi.createFrom().item(now)
                                : nowAndDecision(now, memberId, listener)))
                .withFinalizer(Listener::close);
    }

    private Multi<OrderStatusEvent> nowAndDecision(OrderStatusEvent now, String memberId, Listener listener) {
        Multi<OrderStatusEvent> announced = listener.transitions()
                .map(transition -> OrderStatusEvent.of(transition, now.payDeadline()));
        Multi<OrderStatusEvent> decision = Multi.createBy().merging()
                .streams(announced, rechecked(now.orderId(), memberId))
                .select().first();
        return Multi.createBy().concatenating().streams(Multi.createFrom().item(now), decision);
    }

    /** Decided states found by reading the order again; a failed read is skipped, the next one may succeed. */
    private Multi<OrderStatusEvent> rechecked(long orderId, String memberId) {
        return ticks.every(config.recheckEvery())
                .onItem().transformToUniAndConcatenate(tick -> read(orderId, memberId).onFailure().recoverWithNull())
                .select().where(OrderStatusEvent::isDecided);
    }

    // Each read on a context of its own: the streams of one event loop read side by side.
    private Uni<OrderStatusEvent> read(long orderId, String memberId) {
        return MutinyBridge.onOwnContext(() -> Panache.withSession(() -> orders.findOwned(orderId, memberId))
                .onItem().ifNotNull().transform(OrderStatusEvent::of));
    }
}
