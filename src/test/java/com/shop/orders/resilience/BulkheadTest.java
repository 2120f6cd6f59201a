package com.shop.orders.resilience;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.TimeoutException;

class BulkheadTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Bulkhead bulkhead = new Bulkhead("test", 1, 1, registry);
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        bulkhead.shutdown(1000);
    }

    @Test
    void runsTheCallOnItsOwnThread() {
        String thread = bulkhead.call(() -> Thread.currentThread().getName()).await().atMost(Duration.ofSeconds(1));
        assertTrue(thread.startsWith("test-"), thread);
    }

    @Test
    void aFullBulkheadRefusesAtOnce() {
        bulkhead.call(this::blockUntilReleased).subscribe().with(x -> {
        });
        bulkhead.call(this::blockUntilReleased).subscribe().with(x -> {
        });
        assertThrows(Bulkhead.BulkheadFullException.class,
                () -> bulkhead.call(() -> "third").await().atMost(Duration.ofSeconds(1)));
    }

    @Test
    void aCallerThatGivesUpInterruptsTheWork() {
        AtomicBoolean interrupted = new AtomicBoolean();
        assertThrows(TimeoutException.class, () -> bulkhead.call(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            return "late";
        }).ifNoItem().after(Duration.ofMillis(100)).fail().await().indefinitely());
        await().atMost(Duration.ofSeconds(2)).untilTrue(interrupted);
        assertEquals("next", bulkhead.call(() -> "next").await().atMost(Duration.ofSeconds(1)));
        assertEquals(1, abandoned());
    }

    @Test
    void callsThatEndAreNeitherCancelledNorInterrupted() {
        for (int i = 0; i < 20; i++) {
            int call = i;
            assertEquals(call, bulkhead.call(() -> call).await().atMost(Duration.ofSeconds(1)));
            assertThrows(IllegalStateException.class, () -> bulkhead.call(() -> {
                throw new IllegalStateException("call " + call);
            }).await().atMost(Duration.ofSeconds(1)));
        }
        assertEquals(0, abandoned());
    }

    private double abandoned() {
        return registry.get("bulkhead.abandoned").tag("bulkhead", "test").counter().count();
    }

    private String blockUntilReleased() {
        try {
            release.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "done";
    }
}
