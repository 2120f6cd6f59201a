package com.shop.orders.refund;

public enum RefundStatus {
    /**
     * Recorded with its request number; the wallet's outcome not known yet (being sent, scheduled to be sent, or
     * settled by the refund query).
     */
    PENDING,
    SUCCEEDED,
    /** The wallet refused or closed it for good; its amount can be refunded again. */
    FAILED,
    /**
     * Not final: the wallet took it but could not pay it back to the buyer's account (WeChat's ABNORMAL); a person
     * finishes it in the wallet's merchant console, after which it ends SUCCEEDED or FAILED. Its amount stays taken,
     * and it is never sent again (the same number would change nothing): only asked after now and then.
     */
    ABNORMAL
}
