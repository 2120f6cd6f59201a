package com.shop.orders.order;

/** Why an order was closed unpaid. */
public enum CloseReason {
    /** Not paid by its pay deadline. */
    EXPIRED,
    /** The member cancelled it. */
    MEMBER_CANCELLED
}
