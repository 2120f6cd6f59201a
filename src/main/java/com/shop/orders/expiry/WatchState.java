package com.shop.orders.expiry;

import java.time.Instant;

/** What the check-backs remember about one order's watch. */
public record WatchState(long checks, long queries, Instant lastQueryAt) {
}
