package com.shop.orders.order;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/** A member's view of their orders. Another member's order is not found, never forbidden: its id tells nothing. */
@ApplicationScoped
public class OrderQueries {

    /** An order placed with an idempotency key, and the request that placed it. */
    public record KeyedOrder(String requestHash, OrderView view) {
    }

    private final OrderRepository orders;
    private final OrderRefunds refunds;

    public OrderQueries(OrderRepository orders, OrderRefunds refunds) {
        this.orders = orders;
        this.refunds = refunds;
    }

    public Uni<OrderView> findOwned(long id, String memberId) {
        return Panache.withSession(() -> orders.findOwned(id, memberId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(id))
                .chain(this::view));
    }

    public Uni<OrderPage> listOwned(String memberId, OrderStatus status, int page, int size) {
        return Panache.withSession(() -> orders.pageOwned(memberId, status, page, size)
                .chain(this::views)
                .chain(views -> orders.countOwned(memberId, status)
                        .map(total -> new OrderPage(page, size, total, views))));
    }

    public Uni<KeyedOrder> findByIdempotencyKey(String memberId, String idempotencyKey) {
        return Panache.withSession(() -> orders.findByIdempotencyKey(memberId, idempotencyKey)
                .onItem().ifNotNull().transformToUni(order -> view(order)
                        .map(view -> new KeyedOrder(order.requestHash, view))));
    }

    private Uni<OrderView> view(Order order) {
        return views(List.of(order)).map(views -> views.get(0));
    }

    private Uni<List<OrderView>> views(List<Order> found) {
        if (found.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Long> ids = found.stream().map(o -> o.id).toList();
        return orders.items(ids).chain(items -> refunds.of(ids).map(refundsByOrder -> {
            Map<Long, List<OrderItem>> byOrder = items.stream().collect(Collectors.groupingBy(i -> i.orderId));
            return found.stream().map(o -> OrderView.of(o, byOrder.getOrDefault(o.id, List.of()),
                    refundsByOrder.getOrDefault(o.id, List.of()))).toList();
        }));
    }
}
