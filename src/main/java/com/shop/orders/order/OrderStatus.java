package com.shop.orders.order;

public enum OrderStatus {
    PENDING_PAYMENT,
    PAID,
    CLOSED,
    SHIPPED,
    COMPLETED
}
