package com.shop.orders.live;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.core.Vertx;

/** Periodic ticks from Vert.x timers on the subscriber's event loop: an open stream holds timers, never a thread. */
@ApplicationScoped
public class Ticks {

    private final Vertx vertx;

    public Ticks(Vertx vertx) {
        this.vertx = vertx;
    }

    /** The first tick after one period; cancelling the subscription cancels the timer. */
    public Multi<Long> every(Duration period) {
        // periodicStream(delay) alone fires at once, then every delay.
        return Multi.createFrom().deferred(() -> vertx.periodicStream(period.toMillis(), period.toMillis()).toMulti());
    }
}
