package com.shop.orders.refund;

public enum RefundStatus {
    /** Recorded with its request number; Alipay's outcome not known yet (being sent, or settled by the query). */
    PENDING,
    SUCCEEDED,
    /** Alipay refused it for good; its amount can be refunded again. */
    FAILED
}
