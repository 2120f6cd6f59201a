package com.shop.orders.expiry;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.TradeQuery;
import com.shop.orders.resilience.MutinyBridge;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Looks for a payment whose notify was lost: when an order's query budget says a query is due, asks Alipay
 * and records the payment it finds. Started by a check-back and never waited for, so that a slow Alipay
 * or Redis never delays an answer to the broker; the next check-back after it sees the order decided.
 * Probes run a few at a time; the others wait in line, each order once. The broker checks its messages in the
 * same order on every pass, so probes that were dropped when all were busy would always be the same orders'.
 */
@ApplicationScoped
// Created at start, not at first use, so that its meters exist (at zero) before the first event.
@Startup
public class PaymentProbe {

    private static final Logger LOG = Logger.getLogger(PaymentProbe.class);
    /**
     * What a probe can come to; registered up front, so that dashboards see zeros rather than no data, and held, so
     * that a probe does not look its counter up by name and tags.
     */
    private static final List<String> RESULTS = List.of("paid", "unpaid", "not_due", "busy", "error");
    private static final String QUERY_SPAN = "payment probe";
    private static final AttributeKey<String> RESULT = AttributeKey.stringKey("shop.probe.result");

    private final QueryBudget budget;
    private final TradeQuery trades;
    private final Map<String, Counter> results;
    private final Clock clock;
    private final Vertx vertx;
    private final Spans spans;
    private final Semaphore inFlight;
    private final int waitingMax;
    private final Queue<ExpiryMessage> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicInteger waitingCount = new AtomicInteger();
    /** Orders waiting or being probed: a check-back of one of them adds nothing. */
    private final Set<String> lined = ConcurrentHashMap.newKeySet();

    public PaymentProbe(QueryBudget budget, TradeQuery trades, ExpiryConfig config, MeterRegistry registry,
            Clock clock, Vertx vertx, Spans spans) {
        this.budget = budget;
        this.trades = trades;
        this.clock = clock;
        this.vertx = vertx;
        this.spans = spans;
        this.inFlight = new Semaphore(config.query().concurrency());
        this.waitingMax = config.query().waitingMax();
        registry.gauge("expiry.probes.waiting", waitingCount);
        this.results = RESULTS.stream().collect(Collectors.toUnmodifiableMap(Function.identity(),
                result -> registry.counter("expiry.probes", "result", result)));
    }

    /** Lines up a probe of the order if one could be due; returns at once. */
    void probeIfDue(ExpiryMessage message, Instant now) {
        if (!budget.mayBeDue(message.orderNo(), message.createdAt(), now) || !lined.add(message.orderNo())) {
            return;
        }
        if (waitingCount.incrementAndGet() > waitingMax) {
            waitingCount.decrementAndGet();
            lined.remove(message.orderNo());
            count("busy");
            return;
        }
        waiting.add(message);
        startWaiting();
    }

    /** Starts waiting probes while there is room. Called after each line-up and after each probe ends. */
    private void startWaiting() {
        while (!waiting.isEmpty() && inFlight.tryAcquire()) {
            ExpiryMessage next = waiting.poll();
            if (next == null) {
                inFlight.release();
                continue;
            }
            waitingCount.decrementAndGet();
            start(next);
        }
    }

    /**
     * Runs the probe on a context of its own (each needs its own database session); it ends asynchronously, so
     * that the next one starts from a fresh call of {@link #startWaiting()}, never from deeper in this stack.
     */
    private void start(ExpiryMessage message) {
        // A trace of its own, linked to the one that sent the expiry message; the Alipay query is its child.
        Span span = spans.startLinked(QUERY_SPAN, SpanKind.INTERNAL, message.trace());
        span.setAttribute(Spans.ORDER_NO, message.orderNo());
        try (Scope scope = span.makeCurrent()) {
            MutinyBridge.start(vertx, () -> probe(message, clock.instant()),
                    result -> {
                        span.setAttribute(RESULT, result);
                        span.end();
                        ended(message, result);
                    },
                    failure -> {
                        Spans.end(span, failure);
                        // Alipay being unavailable is counted and shows in alipay.calls; anything else is a fault here.
                        if (failure instanceof PaymentGatewayException) {
                            LOG.debugf("Probe of %s failed: %s", message.orderNo(), failure.toString());
                        } else {
                            LOG.warnf(failure, "Probe of %s failed", message.orderNo());
                        }
                        ended(message, "error");
                    });
        } catch (RuntimeException e) {
            Spans.end(span, e);
            LOG.warnf(e, "Probe of %s could not start", message.orderNo());
            count("error");
            lined.remove(message.orderNo());
            inFlight.release();
        }
    }

    private void ended(ExpiryMessage message, String result) {
        count(result);
        lined.remove(message.orderNo());
        inFlight.release();
        startWaiting();
    }

    private Uni<String> probe(ExpiryMessage message, Instant now) {
        return budget.claim(message.orderNo(), message.createdAt(), now)
                .chain(due -> due
                        ? trades.recordIfPaid(message.orderNo()).map(paid -> paid ? "paid" : "unpaid")
                        : Uni.createFrom().item("not_due"));
    }

    private void count(String result) {
        results.get(result).increment();
    }
}
