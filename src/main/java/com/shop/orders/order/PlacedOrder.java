package com.shop.orders.order;

/** The result of placing an order; {@code replayed} when an Idempotency-Key matched an earlier request. */
public record PlacedOrder(OrderView order, boolean replayed) {
}
