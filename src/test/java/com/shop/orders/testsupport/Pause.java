package com.shop.orders.testsupport;

import java.time.Duration;

/**
 * The one way tests and the harness let time pass: where a test must show that something does NOT happen within a
 * while, and in the pacing and polling loops of the harness and the benchmark. An interrupt stops the caller.
 */
public final class Pause {

    private Pause() {
    }

    public static void of(Duration duration) {
        try {
            Thread.sleep(Math.max(0, duration.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
