package com.shop.orders.expiry;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.shop.orders.payment.PaymentOffered;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * How many Alipay queries each order with a QR code has had, in Redis, shared by every instance (any of
 * them may receive an order's check-back). Opened when the QR code is offered, with a TTL; an order
 * without state (no QR code, or the state was lost with Redis) is never queried by the check-back: the
 * close path still asks Alipay at the deadline.
 * <p>
 * Each instance also remembers, per order, the earliest time its next query can be due, learnt from the state
 * it last read or wrote. The state only moves that time later (queries are counted up, never down), so the memory
 * is a lower bound: a check-back of an order not yet due needs no Redis read, and no due query is missed. An order
 * found without state is read again an interval later: if another instance offers its QR code meanwhile, this one
 * learns of it at most one interval late.
 */
@ApplicationScoped
public class QueryBudget {

    private static final Logger LOG = Logger.getLogger(QueryBudget.class);
    private static final String QUERIES = "queries";
    private static final String LAST = "lastQueryAt";
    /** Takes a query only if nobody took one since the state was read, and never recreates a lost key. */
    private static final String CLAIM = """
            if redis.call('exists', KEYS[1]) == 0 then return 0 end
            if (redis.call('hget', KEYS[1], 'queries') or '0') ~= ARGV[1] then return 0 end
            redis.call('hincrby', KEYS[1], 'queries', 1)
            redis.call('hset', KEYS[1], 'lastQueryAt', ARGV[2])
            return 1""";

    private final ReactiveRedisDataSource redis;
    private final ReactiveHashCommands<String, String, String> hashes;
    private final QueryRule rule;
    private final ExpiryConfig config;
    private final Cache<String, Instant> nextDue;

    public QueryBudget(ReactiveRedisDataSource redis, ExpiryConfig config) {
        this.redis = redis;
        this.hashes = redis.hash(String.class);
        this.rule = QueryRule.of(config.query());
        this.config = config;
        this.nextDue = Caffeine.newBuilder().maximumSize(config.query().nextDueRemembered()).build();
    }

    void onOffered(@Observes PaymentOffered offered) {
        // Its state starts now: what was remembered without one no longer holds.
        nextDue.invalidate(offered.orderNo());
        String key = key(offered.orderNo());
        long expireAt = offered.payDeadline().plus(config.query().stateTtlAfterDeadline()).toEpochMilli();
        hashes.hset(key, QUERIES, "0")
                .chain(() -> redis.key().pexpireat(key, expireAt))
                .subscribe().with(done -> {
                }, failure -> LOG.debugf("No query budget for %s (%s): only the close path will ask Alipay",
                        offered.orderNo(), failure.toString()));
    }

    /**
     * False when a query of this order is certainly not due now, known from memory; true when it may be, which
     * {@link #claim} tells.
     */
    boolean mayBeDue(String orderNo, Instant createdAt, Instant now) {
        if (!rule.isOldEnough(createdAt, now)) {
            return false;
        }
        Instant due = nextDue.getIfPresent(orderNo);
        return due == null || !now.isBefore(due);
    }

    /** True when a query of this order is due now; it is then counted as made. */
    Uni<Boolean> claim(String orderNo, Instant createdAt, Instant now) {
        String key = key(orderNo);
        return hashes.hmget(key, QUERIES, LAST).chain(state -> {
            if (state.get(QUERIES) == null) {
                // No QR code yet (or its state was lost): look again an interval later.
                nextDue.put(orderNo, now.plus(rule.every()));
                return Uni.createFrom().item(false);
            }
            long queries = Long.parseLong(state.get(QUERIES));
            Instant last = state.get(LAST) == null ? null : Instant.ofEpochMilli(Long.parseLong(state.get(LAST)));
            if (!rule.isDue(createdAt, queries, last, now)) {
                nextDue.put(orderNo, rule.nextDue(createdAt, queries, last));
                return Uni.createFrom().item(false);
            }
            return take(key, queries, now).invoke(taken -> {
                if (taken) {
                    nextDue.put(orderNo, rule.nextDue(createdAt, queries + 1, now));
                }
            });
        });
    }

    private Uni<Boolean> take(String key, long queriesSoFar, Instant now) {
        return redis.execute("EVAL", CLAIM, "1", key, Long.toString(queriesSoFar), Long.toString(now.toEpochMilli()))
                .map(Response::toInteger)
                .map(taken -> taken == 1);
    }

    static String key(String orderNo) {
        return "shop:expiry:query:" + orderNo;
    }
}
