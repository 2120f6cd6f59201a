package com.shop.orders.order;

import java.time.Instant;
import java.util.List;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * An order left PENDING_PAYMENT: it is PAID, or CLOSED for {@code closeReason}, which released the stock it held
 * of {@code releasedSkuIds} (null in an announcement from an instance that predates the field). Announced after the
 * transaction committed, on this instance and every other (see {@link OrderTransitions}).
 */
// Written and read with Jackson outside REST: a native image needs its accessors registered.
@RegisterForReflection
public record OrderTransition(long orderId, String orderNo, String memberId, OrderStatus status,
        CloseReason closeReason, Instant at, List<Long> releasedSkuIds) {

    public static OrderTransition paid(Order order, Instant at) {
        return new OrderTransition(order.id, order.orderNo, order.memberId, OrderStatus.PAID, null, at, List.of());
    }

    public static OrderTransition closed(Order order, CloseReason reason, Instant at, List<Long> releasedSkuIds) {
        return new OrderTransition(order.id, order.orderNo, order.memberId, OrderStatus.CLOSED, reason, at,
                List.copyOf(releasedSkuIds));
    }
}
