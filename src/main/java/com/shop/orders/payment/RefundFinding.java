package com.shop.orders.payment;

/** What the wallet's refund query says of a refund number, once it says anything definite. */
public enum RefundFinding {
    /** The money went back. */
    MADE,
    /** The wallet closed it for good: nothing moved. */
    CLOSED,
    /** Taken, but stuck until a person acts in the wallet's merchant console (WeChat's ABNORMAL). */
    ABNORMAL,
    /** The wallet has no refund under this number: sending it (again, with the same number) is safe. */
    NOT_TAKEN
}
