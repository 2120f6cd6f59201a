package com.shop.orders.expiry;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.closing.OrderCloser;
import com.shop.orders.resilience.Backoff;
import com.shop.orders.sql.Claims;
import com.shop.orders.sql.Sql;
import com.shop.orders.tracing.Spans;
import com.shop.orders.tracing.TraceContexts;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The fallback for orders the expiry messages missed. Each pass (1) closes pending orders past their
 * deadline plus a grace period and (2) sends the expiry message again for orders whose send was never
 * confirmed. Replicas claim disjoint batches ({@code FOR UPDATE SKIP LOCKED}, then a lease in
 * {@code sweep_after}), so they add throughput instead of duplicate Alipay calls; an order that fails is
 * retried after a growing pause and never holds up the orders behind it.
 */
@ApplicationScoped
public class ExpirySweep {

    private static final Logger LOG = Logger.getLogger(ExpirySweep.class);

    /** What one pass did. */
    public record Pass(int closed, int failed, int resent) {
    }

    /** {@code placedIn}: the trace that placed the order (W3C traceparent), or null. */
    private record Claimed(long id, String orderNo, Instant createdAt, Instant deadline, String placedIn) {
    }

    private record Closed(int closed, int failed) {
        Closed plus(Closed other) {
            return new Closed(closed + other.closed, failed + other.failed);
        }
    }

    private final Pool pool;
    private final OrderCloser closer;
    private final ExpiryMessages messages;
    private final ExpiryConfig.Sweep config;
    private final Backoff backoff;
    private final Spans spans;
    private final MeterRegistry registry;
    private final Clock clock;

    public ExpirySweep(Pool pool, OrderCloser closer, ExpiryMessages messages, ExpiryConfig config, Spans spans,
            MeterRegistry registry, Clock clock) {
        this.pool = pool;
        this.closer = closer;
        this.messages = messages;
        this.config = config.sweep();
        this.backoff = new Backoff(this.config.retryBackoff(), this.config.retryBackoffMax());
        this.spans = spans;
        this.registry = registry;
        this.clock = clock;
        registry.counter("expiry.sweep.closed");
        registry.counter("expiry.sweep.failures");
    }

    @Scheduled(identity = "expiry-sweep", every = "${shop.expiry.sweep.every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        // Each pass a trace of its own; each order it closes a span linked to the trace that placed the order.
        return spans.within(spans.start("expiry sweep", SpanKind.INTERNAL), this::sweep)
                .invoke(pass -> {
                    if (pass.closed() + pass.failed() + pass.resent() > 0) {
                        LOG.infof("Expiry sweep: %d closed, %d failed (retried later), %d expiry messages resent",
                                pass.closed(), pass.failed(), pass.resent());
                    }
                })
                .onFailure().invoke(e -> LOG.warnf("Expiry sweep failed: %s", e.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    public Uni<Pass> sweep() {
        return closeOverdue(1, new Closed(0, 0))
                .chain(closed -> resendMissing().map(resent -> new Pass(closed.closed(), closed.failed(), resent)));
    }

    /** Claims and closes batches until a claim comes back short (or the pass has claimed enough). */
    private Uni<Closed> closeOverdue(int claim, Closed sofar) {
        return claim(this::overdue).chain(batch -> closeAll(batch).chain(result -> batch.size() < config.batch()
                || claim >= config.maxClaims()
                        ? Uni.createFrom().item(sofar.plus(result))
                        : closeOverdue(claim + 1, sofar.plus(result))));
    }

    private Uni<Closed> closeAll(List<Claimed> batch) {
        return Multi.createFrom().iterable(batch)
                .onItem().transformToUni(order -> spans.within(spans.start("expiry sweep close", SpanKind.INTERNAL,
                        TraceContexts.parse(order.placedIn())), () -> closer.closeIfOverdue(order.orderNo(), OrderCloser.By.SWEEP))
                        .invoke(outcome -> {
                            if (outcome == OrderCloser.Outcome.CLOSED) {
                                // The fallback did the broker's work: worth a line when the broker path fails.
                                LOG.infof("Order %s closed by the sweep", order.orderNo());
                            }
                        })
                        .map(outcome -> outcome == OrderCloser.Outcome.CLOSED ? new Closed(1, 0) : new Closed(0, 0))
                        .onFailure().recoverWithItem(failure -> {
                            LOG.warnf("Sweep could not close %s (retried later): %s", order.orderNo(), failure.toString());
                            return new Closed(0, 1);
                        }))
                .merge(config.concurrency())
                .collect().in(() -> new Closed[] { new Closed(0, 0) }, (sum, one) -> sum[0] = sum[0].plus(one))
                .map(sum -> sum[0])
                .invoke(result -> {
                    registry.counter("expiry.sweep.closed").increment(result.closed());
                    registry.counter("expiry.sweep.failures").increment(result.failed());
                });
    }

    private Uni<Integer> resendMissing() {
        return claim(this::unconfirmed).chain(batch -> Multi.createFrom().iterable(batch)
                .onItem().transformToUni(order -> messages.send(order.id(),
                        new ExpiryMessage(order.orderNo(), order.createdAt(), order.deadline(),
                                TraceContexts.parse(order.placedIn())))
                        .replaceWith(1)
                        .onFailure().recoverWithItem(0))
                .merge(config.concurrency())
                .collect().asList()
                .map(sent -> sent.stream().mapToInt(Integer::intValue).sum())
                .invoke(resent -> registry.counter("expiry.messages.resent").increment(resent)));
    }

    /** Pending orders past their deadline and the grace period, oldest deadline first. */
    private Uni<List<Claimed>> overdue(SqlConnection connection, Instant now) {
        return select(connection, "status = 'PENDING_PAYMENT' AND pay_deadline < ?",
                List.of(Sql.utc(now.minus(config.grace()))), now);
    }

    /** Pending orders with their deadline ahead whose expiry message was not confirmed sent in time. */
    private Uni<List<Claimed>> unconfirmed(SqlConnection connection, Instant now) {
        return select(connection, "status = 'PENDING_PAYMENT' AND pay_deadline > ? AND expiry_message_at IS NULL "
                + "AND created_at < ?", List.of(Sql.utc(now), Sql.utc(now.minus(config.resendAfter()))), now);
    }

    private Uni<List<Claimed>> select(SqlConnection connection, String condition, List<Object> bounds, Instant now) {
        List<Object> params = new ArrayList<>(bounds);
        params.add(Sql.utc(now));
        params.add(config.batch());
        return connection.preparedQuery("SELECT id, order_no, created_at, pay_deadline, trace_parent FROM orders WHERE "
                + condition
                + " AND (sweep_after IS NULL OR sweep_after <= ?) ORDER BY pay_deadline LIMIT ? FOR UPDATE SKIP LOCKED")
                .execute(Tuple.from(params))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>();
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getLong("id"), row.getString("order_no"),
                                Sql.instant(row.getLocalDateTime("created_at")),
                                Sql.instant(row.getLocalDateTime("pay_deadline")), row.getString("trace_parent")));
                    }
                    return claimed;
                });
    }

    /**
     * Claims rows in one short transaction: selects them skipping rows other replicas hold, then leases them
     * for a pause that doubles with each claim of the same order (so a failing order waits longer each time).
     */
    private Uni<List<Claimed>> claim(Selection selection) {
        Instant now = clock.instant();
        return Claims.inTransaction(pool, connection -> selection.apply(connection, now)
                .call(claimed -> claimed.isEmpty() ? Uni.createFrom().voidItem() : lease(connection, claimed, now)));
    }

    private Uni<Void> lease(SqlConnection connection, List<Claimed> claimed, Instant now) {
        Sql.InList ids = Sql.inList(claimed.stream().map(Claimed::id).toList());
        List<Object> params = new ArrayList<>(backoff.sqlParams(now));
        params.addAll(ids.values());
        // The lease is the pause before the next try: it only matters if this one fails.
        return connection.preparedQuery("UPDATE orders SET sweep_after = " + backoff.sqlAfter("sweep_attempts")
                + ", sweep_attempts = sweep_attempts + 1 WHERE id IN (" + ids.placeholders() + ")")
                .execute(Tuple.from(params))
                .replaceWithVoid();
    }

    @FunctionalInterface
    private interface Selection {
        Uni<List<Claimed>> apply(SqlConnection connection, Instant now);
    }
}
