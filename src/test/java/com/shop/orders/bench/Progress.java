package com.shop.orders.bench;

import java.time.Duration;
import java.time.Instant;

/** Progress lines on stdout, each with the time since the run started. */
final class Progress {

    private static final Instant START = Instant.now();

    private Progress() {
    }

    static void say(String format, Object... args) {
        long s = Duration.between(START, Instant.now()).toSeconds();
        System.out.printf("[bench %02d:%02d] %s%n", s / 60, s % 60, String.format(format, args));
        System.out.flush();
    }
}
