package com.shop.orders.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that stands still until a test moves it: time passes in a unit test without waiting for it. */
public final class MovableClock extends Clock {

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    public MovableClock(Instant start) {
        this(new AtomicReference<>(start), ZoneOffset.UTC);
    }

    private MovableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    public void advance(Duration by) {
        now.updateAndGet(instant -> instant.plus(by));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** The same time in another zone: moving either clock moves both. */
    @Override
    public Clock withZone(ZoneId other) {
        return new MovableClock(now, other);
    }
}
