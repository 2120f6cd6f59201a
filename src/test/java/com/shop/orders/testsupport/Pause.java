package com.shop.orders.testsupport;

import java.time.Duration;

/** Lets time pass where a test must show that something does NOT happen within a while. */
public final class Pause {

    private Pause() {
    }

    public static void of(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
