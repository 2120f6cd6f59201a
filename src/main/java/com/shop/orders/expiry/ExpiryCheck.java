package com.shop.orders.expiry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.jboss.logging.Logger;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.resilience.MutinyBridge;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.Startup;

/**
 * Answers the broker's check-backs of expiry messages ({@link ExpiryDecision} says what). Every answer is
 * made from memory, without I/O: the deadline travels with the message, decided orders are known from
 * their announced transitions, and a due Alipay query runs on its own ({@link PaymentProbe}). Answers must
 * be fast: the broker sends a whole pass of checks in a burst, and a check answered after its next pass
 * is checked again (and, past the deadline, committed and delivered again).
 */
@ApplicationScoped
// Created at start, not at first use, so that its meters exist (at zero) before the first event.
@Startup
public class ExpiryCheck implements TransactionListener {

    private static final Logger LOG = Logger.getLogger(ExpiryCheck.class);
    private static final AttributeKey<Long> CHECK_TIMES = AttributeKey.longKey("shop.expiry.check_times");
    private static final AttributeKey<String> ANSWER = AttributeKey.stringKey("shop.expiry.answer");
    private static final AttributeKey<String> REASON = AttributeKey.stringKey("shop.expiry.reason");

    private final DecidedOrders decided;
    private final PaymentProbe probe;
    private final OrderRepository orders;
    private final ExpiryConfig config;
    private final Spans spans;
    private final OrderEvents events;
    private final Clock clock;
    /** Looked up once: the broker checks every waiting order each interval, thousands of answers a second. */
    private final Map<LocalTransactionState, Timer> timers = new EnumMap<>(LocalTransactionState.class);
    private final Counter failures;

    public ExpiryCheck(DecidedOrders decided, PaymentProbe probe, OrderRepository orders, ExpiryConfig config,
            Spans spans, OrderEvents events, MeterRegistry registry, Clock clock) {
        this.decided = decided;
        this.probe = probe;
        this.orders = orders;
        this.config = config;
        this.spans = spans;
        this.events = events;
        this.clock = clock;
        for (LocalTransactionState answer : LocalTransactionState.values()) {
            timers.put(answer, timer(answer, registry));
        }
        // A failed check answers like a waiting one; counted apart so that failures can be alerted on.
        this.failures = registry.counter("expiry.checks.failures");
    }

    /** The order is committed already (messages are sent after placement): let the check-backs decide. */
    @Override
    public LocalTransactionState executeLocalTransaction(Message message, Object arg) {
        return LocalTransactionState.UNKNOW;
    }

    /**
     * Answers one check-back. Its span starts a trace of its own, linked to the trace that sent the message (the
     * placement); the timeline gets the first check-back and each one that decides (never an I/O of its own: notes
     * are written in batches).
     */
    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt message) {
        long start = System.nanoTime();
        ExpiryMessage expiry = ExpiryMessage.of(message);
        int checkTimes = checkTimes(message);
        Span span = spans.startLinked(config.topic() + " check", SpanKind.CONSUMER, expiry.trace());
        ExpiryDecision decision;
        String reason;
        try (Scope scope = span.makeCurrent()) {
            try {
                decision = expiry.carriesTimes() ? answerFromMemory(expiry, checkTimes)
                        : answerFromDatabase(expiry, checkTimes);
                reason = decision.reason();
            } catch (Throwable e) {
                LOG.warnf("Check-back for %s failed (%s); asking again later", expiry.orderNo(), e.toString());
                failures.increment();
                decision = ExpiryDecision.whileWaiting(checkTimes, config.brokerCheckMax());
                reason = "check failed (" + e.getClass().getSimpleName() + "), " + decision.reason();
            }
            LocalTransactionState answer = decision.answer();
            span.setAttribute(Spans.ORDER_NO, expiry.orderNo());
            span.setAttribute(CHECK_TIMES, checkTimes);
            span.setAttribute(ANSWER, answer.name());
            span.setAttribute(REASON, reason);
            if (checkTimes <= 1 || answer != LocalTransactionState.UNKNOW) {
                events.checkBack(expiry.orderNo(), answer.name(), checkTimes, reason);
            }
        } finally {
            span.end();
        }
        timers.get(decision.answer()).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return decision.answer();
    }

    private static Timer timer(LocalTransactionState answer, MeterRegistry registry) {
        // A histogram: slow answers are how the broker's re-checks start to multiply, so their p99 is watched.
        return Timer.builder("expiry.checks").description("Check-backs of expiry messages by answer, and how long each took")
                .tag("answer", answer.name())
                .serviceLevelObjectives(Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofMillis(100),
                        Duration.ofSeconds(1), Duration.ofSeconds(5))
                .register(registry);
    }

    private ExpiryDecision answerFromMemory(ExpiryMessage expiry, int checkTimes) {
        Instant now = clock.instant();
        ExpiryDecision decision = ExpiryDecision.decide(decided.isDecided(expiry.orderNo()), expiry.deadline(),
                now, checkTimes, config.brokerCheckMax());
        if (decision.answer() == LocalTransactionState.UNKNOW) {
            probe.probeIfDue(expiry, now);
        }
        return decision;
    }

    /** A message from before the deadline travelled with it: the order in the database says. */
    private ExpiryDecision answerFromDatabase(ExpiryMessage expiry, int checkTimes) throws Throwable {
        return MutinyBridge.await(() -> Panache.withSession(() -> orders.findByOrderNo(expiry.orderNo()))
                .map(order -> ExpiryDecision.decide(order == null || !order.isPending(),
                        order == null ? clock.instant() : order.payDeadline, clock.instant(), checkTimes,
                        config.brokerCheckMax())),
                config.checkTimeout());
    }

    private static int checkTimes(MessageExt message) {
        String value = message.getProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES);
        try {
            return value == null ? 1 : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
