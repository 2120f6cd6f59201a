package com.shop.orders.expiry;

import java.time.Duration;
import java.time.Instant;

/**
 * When the expiry check-back may ask Alipay about an order (its budget): not before {@code firstAfter}
 * from the order's creation, then at most every {@code every}, at most {@code max} times. Pure.
 */
record QueryRule(Duration firstAfter, Duration every, int max) {

    /** The next query of an order whose budget is spent: never. */
    static final Instant NEVER = Instant.MAX;

    static QueryRule of(ExpiryConfig.Query config) {
        return new QueryRule(config.firstAfter(), config.every(), config.max());
    }

    /** Old enough for a query at all; no state needed to tell. */
    boolean isOldEnough(Instant createdAt, Instant now) {
        return !now.isBefore(createdAt.plus(firstAfter));
    }

    boolean isDue(Instant createdAt, long queriesSoFar, Instant lastQueryAt, Instant now) {
        return !now.isBefore(nextDue(createdAt, queriesSoFar, lastQueryAt));
    }

    /** The earliest time the next query is due, or {@link #NEVER}. */
    Instant nextDue(Instant createdAt, long queriesSoFar, Instant lastQueryAt) {
        if (queriesSoFar >= max) {
            return NEVER;
        }
        Instant first = createdAt.plus(firstAfter);
        return lastQueryAt == null || first.isAfter(lastQueryAt.plus(every)) ? first : lastQueryAt.plus(every);
    }
}
