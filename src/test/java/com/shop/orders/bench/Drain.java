package com.shop.orders.bench;

import java.time.Duration;
import java.time.Instant;

import com.shop.orders.testsupport.Pause;

/**
 * Waits until every order placed so far is decided (paid or closed), so that the next phase does not also measure
 * the expiry of the previous phase's orders. Bounded: the pay window plus three minutes.
 */
final class Drain {

    private Drain() {
    }

    static void await(Bench bench, String before) {
        if (!bench.size().drainsBetweenPhases()) {
            return;
        }
        Instant giveUp = Instant.now().plus(bench.stack().timings().payTimeout()).plus(Duration.ofMinutes(3));
        Instant nextReport = Instant.now();
        long pending;
        while ((pending = bench.facts().pendingAll()) > 0 && Instant.now().isBefore(giveUp)) {
            if (!Instant.now().isBefore(nextReport)) {
                Progress.say("  waiting for %d pending orders to expire before %s", pending, before);
                nextReport = Instant.now().plusSeconds(15);
            }
            Pause.of(Duration.ofSeconds(2));
        }
        if (pending > 0) {
            Progress.say("  %d orders still pending; going on", pending);
        }
    }
}
