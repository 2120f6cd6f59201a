package com.shop.orders.refund;

/** Why money went back. */
public enum RefundCause {
    /** An admin asked for it (a return, an item that cannot ship, a price adjustment, goodwill). */
    REQUESTED,
    /** The buyer paid an order that had already been closed: all of it goes back, the order stays closed. */
    LATE_PAYMENT,
    /** The buyer paid a second trade of an order another trade had paid (both QR codes): all of it goes back. */
    DUPLICATE_PAYMENT,
    /** Alipay refunded by itself: the service voided a trade that had been paid meanwhile. */
    CANCELLED_TRADE,
    /**
     * On Alipay's bill, not recorded here (made in the merchant console, say): the reconciliation found it, the
     * refund query confirmed it.
     */
    FOUND_AT_ALIPAY,
    /** The same on WeChat Pay's bill. */
    FOUND_AT_WECHAT
}
