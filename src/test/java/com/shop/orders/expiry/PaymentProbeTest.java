package com.shop.orders.expiry;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.payment.TradeQuery;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.TracerProvider;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Probes on a real Vert.x: more probes than slots, each finishing on an event loop as Redis and the database do, so
 * that the waiting ones are started from there. Budget and Alipay are stand-ins.
 */
class PaymentProbeTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final QueryBudget budget = mock(QueryBudget.class);
    private final TradeQuery trades = mock(TradeQuery.class);
    private final ExpiryConfig config = mock(ExpiryConfig.class);
    private final ExpiryConfig.Query query = mock(ExpiryConfig.Query.class);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Vertx vertx;
    private PaymentProbe probe;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        when(config.query()).thenReturn(query);
        when(query.concurrency()).thenReturn(2);
        when(query.waitingMax()).thenReturn(1000);
        when(budget.mayBeDue(anyString(), any(), any())).thenReturn(true);
        probe = new PaymentProbe(budget, trades, config, registry, Clock.fixed(NOW, ZoneOffset.UTC), vertx,
                new Spans(TracerProvider.noop().get("test")));
    }

    @AfterEach
    void tearDown() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void everyLinedUpProbeRunsOnItsOwnContextAndNoneFails() {
        Set<Context> contexts = ConcurrentHashMap.newKeySet();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        when(budget.claim(anyString(), any(), any())).thenAnswer(call -> onEventLoop(true));
        when(trades.recordIfPaid(anyString())).thenAnswer(call -> {
            contexts.add(Vertx.currentContext());
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            return onEventLoop(((String) call.getArgument(0)).endsWith("7"))
                    .onTermination().invoke(running::decrementAndGet);
        });

        for (int i = 0; i < 50; i++) {
            probe.probeIfDue(new ExpiryMessage("order-" + i, NOW.minusSeconds(60), NOW.plusSeconds(60)), NOW);
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> probes("paid") + probes("unpaid") + probes("error") == 50);
        assertEquals(0, probes("error"));
        assertEquals(5, probes("paid"));
        assertEquals(45, probes("unpaid"));
        assertEquals(50, contexts.size(), "each probe has a context (and so a database session) of its own");
        assertTrue(mostAtOnce.get() <= 2, "at most the configured probes at once, was " + mostAtOnce.get());
    }

    @Test
    void anOrderAlreadyLinedUpIsNotLinedUpTwice() {
        when(budget.claim(anyString(), any(), any())).thenAnswer(call -> onEventLoop(false).onItem()
                .delayIt().by(Duration.ofMillis(200)));
        ExpiryMessage message = new ExpiryMessage("order-1", NOW.minusSeconds(60), NOW.plusSeconds(60));
        probe.probeIfDue(message, NOW);
        probe.probeIfDue(message, NOW);

        await().atMost(Duration.ofSeconds(10)).until(() -> probes("not_due") == 1);
        probe.probeIfDue(message, NOW);
        await().atMost(Duration.ofSeconds(10)).until(() -> probes("not_due") == 2);
        assertEquals(0, probes("error"));
    }

    @Test
    void anOrderKnownNotToBeDueIsNotLinedUp() {
        ExpiryMessage message = new ExpiryMessage("order-1", NOW.minusSeconds(60), NOW.plusSeconds(60));
        when(budget.mayBeDue("order-1", message.createdAt(), NOW)).thenReturn(false);
        probe.probeIfDue(message, NOW);

        verify(budget, never()).claim(anyString(), any(), any());
        assertEquals(0, registry.get("expiry.probes.waiting").gauge().value());
    }

    /** An item delivered later on an event loop, the way the Redis and database clients deliver theirs. */
    private <T> Uni<T> onEventLoop(T item) {
        return Uni.createFrom().emitter(emitter -> vertx.setTimer(5, id -> emitter.complete(item)));
    }

    private double probes(String result) {
        return registry.counter("expiry.probes", "result", result).count();
    }
}
