package com.shop.orders.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(30));

    @Test
    void doublesUpToItsMaximum() {
        assertEquals(Duration.ofSeconds(2), backoff.after(1));
        assertEquals(Duration.ofSeconds(4), backoff.after(2));
        assertEquals(Duration.ofSeconds(16), backoff.after(4));
        assertEquals(Duration.ofSeconds(30), backoff.after(5));
        assertEquals(Duration.ofSeconds(30), backoff.after(500));
    }
}
