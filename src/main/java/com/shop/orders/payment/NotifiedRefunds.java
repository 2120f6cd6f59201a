package com.shop.orders.payment;

import io.smallrye.mutiny.Uni;

/** Refund notifies, verified by their wallet's package; implemented where every refund outcome is recorded. */
public interface NotifiedRefunds {

    /** What a notify came to. */
    enum Outcome {
        /** Recorded now, or before (a duplicate): the wallet can stop sending it. */
        RECORDED,
        /** No refund under this number: not one of ours. */
        UNKNOWN_REFUND,
        /** The refund's trade or amount is not what this service recorded. */
        MISMATCH
    }

    /** Records how the refund ended (or that it is stuck), once, whatever is duplicated. */
    Uni<Outcome> take(RefundNotice notice);
}
