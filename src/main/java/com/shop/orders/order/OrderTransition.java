package com.shop.orders.order;

import java.time.Instant;

/**
 * An order left PENDING_PAYMENT: it is PAID, or CLOSED for {@code closeReason}. Announced after the
 * transaction committed, on this instance and every other (see {@link OrderTransitions}).
 */
public record OrderTransition(long orderId, String orderNo, String memberId, OrderStatus status,
        CloseReason closeReason, Instant at) {

    public static OrderTransition paid(Order order, Instant at) {
        return new OrderTransition(order.id, order.orderNo, order.memberId, OrderStatus.PAID, null, at);
    }

    public static OrderTransition closed(Order order, CloseReason reason, Instant at) {
        return new OrderTransition(order.id, order.orderNo, order.memberId, OrderStatus.CLOSED, reason, at);
    }
}
