package com.shop.orders.reconciliation;

/** What a bill and this service can disagree on, and what the reconciliation does about each. */
public enum DifferenceKind {
    /** The wallet has the money, the order is not PAID here: settled through the query and the payment paths. */
    PAID_NOT_RECORDED,
    /** PAID here, not in the bill (the wallet asked, its answer noted): flagged. */
    MISSING_FROM_BILL,
    /** Both have it, with other amounts: flagged. */
    AMOUNT_MISMATCH,
    /** A refund in the bill that was not recorded here: flagged. */
    REFUND_NOT_RECORDED,
    /** A refund recorded here that is not in the bill: flagged. */
    REFUND_MISSING_FROM_BILL,
    /** A trade for an order number this service never created (or another trade number for it): flagged. */
    UNKNOWN_TRADE
}
