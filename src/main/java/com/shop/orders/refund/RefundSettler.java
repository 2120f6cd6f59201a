package com.shop.orders.refund;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.resilience.MutinyBridge;
import com.shop.orders.sql.Claims;
import com.shop.orders.sql.Sql;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Settles refunds whose outcome is not known: a send that timed out, a 5xx, {@code ACQ.SYSTEM_ERROR}, a replica
 * that died before the wallet's answer was recorded, a refund scheduled for later (a wallet's least interval between
 * refunds of a trade). Each pass claims the due PENDING and ABNORMAL refunds (replicas claim disjoint ones, and a
 * claim is a lease), asks the wallet with the refund query what became of each, and sends it (again, with the same
 * request number) only if the wallet does not have it, until the wallet says what happened. An ABNORMAL refund is
 * only asked after, at a slow interval, until a person's fix in the merchant console ends it.
 */
@ApplicationScoped
public class RefundSettler {

    private static final Logger LOG = Logger.getLogger(RefundSettler.class);

    private final Pool pool;
    private final RefundRepository refunds;
    private final RefundSender sender;
    private final RefundMetrics metrics;
    private final RefundConfig config;
    private final Clock clock;

    public RefundSettler(Pool pool, RefundRepository refunds, RefundSender sender, RefundMetrics metrics,
            RefundConfig config, Clock clock) {
        this.pool = pool;
        this.refunds = refunds;
        this.sender = sender;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
    }

    @Scheduled(identity = "refund-settler", every = "${shop.refunds.settle-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return settle()
                .onFailure().invoke(e -> LOG.warnf("Refund settler pass failed: %s", e.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** One pass: claim, settle each, count what is still pending. Answers how many refunds it took. */
    public Uni<Integer> settle() {
        Instant now = clock.instant();
        return claim(now)
                .call(ids -> Multi.createFrom().iterable(ids)
                        .onItem().transformToUni(this::settleOne).merge(4)
                        .collect().last())
                .map(List::size)
                .call(() -> countPending(now));
    }

    private Uni<List<Long>> claim(Instant now) {
        return Claims.inTransaction(pool, connection -> connection
                .preparedQuery("SELECT id FROM refund WHERE status IN ('PENDING', 'ABNORMAL') AND next_attempt_at <= ? "
                        + "ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED")
                .execute(Tuple.of(Sql.utc(now), config.settleBatch()))
                .map(rows -> {
                    List<Long> ids = new ArrayList<>();
                    for (Row row : rows) {
                        ids.add(row.getLong("id"));
                    }
                    return ids;
                })
                .call(ids -> ids.isEmpty() ? Uni.createFrom().voidItem()
                        : Claims.leaseUntil(connection, "refund", ids, now.plus(config.claimLease()))));
    }

    /**
     * One refund's failure is logged and left to its next attempt; the others go on. Each on a context of its own:
     * they run side by side, and a Hibernate Reactive session runs one statement at a time.
     */
    private Uni<Void> settleOne(long refundId) {
        return MutinyBridge.onOwnContext(() -> Panache.withSession(() -> refunds.findById(refundId))
                        .chain(sender::settle))
                .onFailure().invoke(e -> LOG.warnf("Refund %d could not be settled: %s", refundId, e.toString()))
                .onFailure().recoverWithNull();
    }

    private Uni<Void> countPending(Instant now) {
        return pool.preparedQuery("SELECT COUNT(CASE WHEN status = 'PENDING' THEN 1 END) AS pending, "
                + "COUNT(CASE WHEN status = 'ABNORMAL' THEN 1 END) AS abnormal, "
                + "MIN(CASE WHEN status = 'PENDING' THEN requested_at END) AS oldest FROM refund "
                + "WHERE status IN ('PENDING', 'ABNORMAL')")
                .execute()
                .invoke(rows -> {
                    Row row = rows.iterator().next();
                    Instant oldest = Sql.instant(row.getLocalDateTime("oldest"));
                    metrics.pending(row.getLong("pending"),
                            oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toSeconds()),
                            row.getLong("abnormal"));
                })
                .replaceWithVoid();
    }
}
