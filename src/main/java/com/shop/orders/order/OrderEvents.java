package com.shop.orders.order;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.sql.Sql;
import com.shop.orders.tracing.TraceContexts;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Writes an order's timeline (table {@code order_event}, see V7__order_timeline.sql), which
 * {@link OrderTimelineResource} shows. Two ways in, by what is being told:
 * <ul>
 * <li>{@link #record}: a change of the order (paid, closed, a QR code offered, a refund), in the caller's Hibernate
 * transaction that makes it, so that the timeline never tells a change that did not happen;</li>
 * <li>{@link #note}: what has no transaction of its own (an Alipay call, a notify, a check-back, an expiry message),
 * without I/O on the caller's thread: queued and written in batches every second, best effort (a crash loses the last
 * second's notes), at most {@code QUEUE_MAX} waiting; more are dropped and counted.</li>
 * </ul>
 * Each entry carries the trace it was made in, when that trace is kept.
 */
@ApplicationScoped
public class OrderEvents {

    private static final Logger LOG = Logger.getLogger(OrderEvents.class);
    private static final int QUEUE_MAX = 20_000;
    private static final int BATCH = 500;
    private static final int OUTCOME_MAX = 64;
    private static final int DETAIL_MAX = 255;

    /** What an entry tells; the timeline's {@code kind}. */
    public enum Kind {
        /** A QR code was offered (outcome: Alipay's answer). */
        QR_OFFERED,
        /** An Alipay API call about the order (detail: the method; outcome: success, Alipay's code or error). */
        ALIPAY_CALL,
        /** A WeChat Pay API call about the order (detail: the method; outcome: success, WeChat's code or error). */
        WECHAT_CALL,
        /** A notify from Alipay (outcome: what it did; detail: the trade status). */
        NOTIFY,
        /** The order was paid (outcome: how it was learnt). */
        PAID,
        /** The order was closed (outcome: the reason; detail: by what). */
        CLOSED,
        /** A check-back: the first, and every one that decided something (outcome: the answer). */
        CHECK_BACK,
        /** The order's expiry message (outcome: sent, renewed, failed). */
        EXPIRY_MESSAGE,
        /** A refund recorded or settled (outcome: its status). */
        REFUND
    }

    private record Note(String orderNo, Instant at, Kind kind, String outcome, String detail, String traceId) {
    }

    private final Pool pool;
    private final Clock clock;
    private final ConcurrentLinkedQueue<Note> notes = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final Counter dropped;

    public OrderEvents(Pool pool, Clock clock, MeterRegistry registry) {
        this.pool = pool;
        this.clock = clock;
        this.dropped = Counter.builder("order.events.dropped")
                .description("Timeline notes not written: the queue was full, or the database refused the batch")
                .register(registry);
    }

    /** Adds an entry in the caller's (Hibernate) transaction. */
    public Uni<Void> record(String orderNo, Kind kind, String outcome, String detail) {
        Note note = note(orderNo, kind, outcome, detail, clock.instant());
        return Panache.getSession().chain(session -> session.createNativeQuery("INSERT INTO order_event "
                + "(order_no, at, kind, outcome, detail, trace_id) VALUES (?, ?, ?, ?, ?, ?)")
                .setParameter(1, note.orderNo()).setParameter(2, Sql.utc(note.at())).setParameter(3, note.kind().name())
                .setParameter(4, note.outcome()).setParameter(5, note.detail()).setParameter(6, note.traceId())
                .executeUpdate())
                .replaceWithVoid();
    }

    /** Queues an entry for the next batch; returns at once. */
    public void note(String orderNo, Kind kind, String outcome, String detail) {
        if (queued.incrementAndGet() > QUEUE_MAX) {
            queued.decrementAndGet();
            dropped.increment();
            return;
        }
        notes.add(note(orderNo, kind, outcome, detail, clock.instant()));
    }

    /** A check-back: its answer, and the broker's count of checks of the message so far. */
    public void checkBack(String orderNo, String answer, int checkTimes, String reason) {
        note(orderNo, Kind.CHECK_BACK, answer, OrderTimeline.checkBackDetail(checkTimes, reason));
    }

    @Scheduled(identity = "order-events", every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> writeNotes() {
        List<Note> batch = new ArrayList<>();
        Note next;
        while (batch.size() < BATCH && (next = notes.poll()) != null) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        queued.addAndGet(-batch.size());
        Tuple params = Tuple.tuple();
        batch.forEach(note -> params.addString(note.orderNo()).addValue(Sql.utc(note.at())).addString(note.kind().name())
                .addValue(note.outcome()).addValue(note.detail()).addValue(note.traceId()));
        return pool.preparedQuery("INSERT INTO order_event (order_no, at, kind, outcome, detail, trace_id) VALUES "
                + String.join(", ", Collections.nCopies(batch.size(), "(?, ?, ?, ?, ?, ?)")))
                .execute(params)
                .replaceWithVoid()
                .onFailure().recoverWithItem(failure -> {
                    dropped.increment(batch.size());
                    LOG.debugf("%d timeline notes not written: %s", batch.size(), failure.toString());
                    return null;
                })
                // More than a batch a second: go on with the next one now.
                .chain(() -> notes.isEmpty() ? Uni.createFrom().voidItem() : writeNotes());
    }

    private static Note note(String orderNo, Kind kind, String outcome, String detail, Instant at) {
        return new Note(orderNo, at, kind, cut(outcome, OUTCOME_MAX), cut(detail, DETAIL_MAX),
                TraceContexts.currentTraceId());
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
