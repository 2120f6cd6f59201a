package com.shop.orders.payment;

import java.time.Duration;

/**
 * A wallet's rules on refunds of one trade, checked before a refund is recorded so that the wallet never refuses one
 * for them: how many refunds a trade takes, how long after the payment, and how far apart they must be sent.
 *
 * @param maxRefunds refunds one trade takes at most (those the wallet refused or closed do not count); 0: no limit
 * @param refundableFor how long after the payment a trade can be refunded; null: no limit
 * @param interval the least time between two refunds of a trade reaching the wallet; zero: none
 */
public record RefundLimits(int maxRefunds, Duration refundableFor, Duration interval) {

    public static final RefundLimits NONE = new RefundLimits(0, null, Duration.ZERO);
}
