package com.shop.orders.order;

import java.time.Instant;

/** Fired (CDI) once an order's placement has committed; the expiry package starts watching its deadline. */
public record OrderPlaced(long orderId, String orderNo, Instant createdAt, Instant payDeadline) {
}
