package com.shop.orders.expiry;

import java.time.Instant;

import com.shop.orders.order.OrderStatus;

/** What a check-back needs to know of an order. */
record WatchedOrder(long id, OrderStatus status, Instant payDeadline, Instant createdAt) {

    boolean isPending() {
        return status == OrderStatus.PENDING_PAYMENT;
    }

    boolean isPastDeadline(Instant now) {
        return !now.isBefore(payDeadline);
    }
}
