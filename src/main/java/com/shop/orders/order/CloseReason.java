package com.shop.orders.order;

public enum CloseReason {
    /** Not paid by the pay deadline. */
    TIMEOUT,
    MEMBER_CANCELLED
}
