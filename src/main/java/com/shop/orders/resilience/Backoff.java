package com.shop.orders.resilience;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.shop.orders.sql.Sql;

/**
 * The retry rule of background work (sweep, outbox): wait {@code base} after the first failure, twice as
 * long after each further one, never longer than {@code max}. Written once, in Java and as SQL for
 * statements that set the next attempt of many rows at once.
 */
public record Backoff(Duration base, Duration max) {

    /** The wait after {@code failures} failed attempts (1 or more). */
    public Duration after(int failures) {
        Duration wait = base.multipliedBy(1L << Math.min(Math.max(failures - 1, 0), 30));
        return wait.compareTo(max) > 0 || wait.isNegative() ? max : wait;
    }

    /**
     * SQL for "now plus the wait after {@code failuresColumn} failures", with {@link #sqlParams} bound to
     * its three placeholders. The column counts the attempts before this one.
     */
    public String sqlAfter(String failuresColumn) {
        return "DATE_ADD(?, INTERVAL LEAST(? * POW(2, LEAST(GREATEST(" + failuresColumn + ", 0), 30)), ?) "
                + "MICROSECOND)";
    }

    public List<Object> sqlParams(Instant now) {
        return List.of(Sql.utc(now), base.toNanos() / 1000, max.toNanos() / 1000);
    }
}
