package com.shop.orders.expiry;

import java.time.Duration;
import java.time.Instant;

/**
 * When the expiry check-back may ask Alipay about an order (its budget): not before {@code firstAfter}
 * from the order's creation, then at most every {@code every}, at most {@code max} times. Pure.
 */
record QueryRule(Duration firstAfter, Duration every, int max) {

    static QueryRule of(ExpiryConfig.Query config) {
        return new QueryRule(config.firstAfter(), config.every(), config.max());
    }

    /** Old enough for a query at all; no state needed to tell. */
    boolean isOldEnough(Instant createdAt, Instant now) {
        return !now.isBefore(createdAt.plus(firstAfter));
    }

    boolean isDue(Instant createdAt, long queriesSoFar, Instant lastQueryAt, Instant now) {
        return isOldEnough(createdAt, now)
                && queriesSoFar < max
                && (lastQueryAt == null || !now.isBefore(lastQueryAt.plus(every)));
    }
}
