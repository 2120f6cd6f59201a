package com.shop.orders.expiry;

import java.time.Instant;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.hash.ReactiveHashCommands;
import io.quarkus.redis.datasource.keys.ReactiveKeyCommands;
import io.smallrye.mutiny.Uni;

/**
 * Watch state in Redis, shared by every producer of the group (any of them may receive a
 * check-back). It is a budget and a record, not the truth: the order in the database is.
 */
@ApplicationScoped
public class WatchStore {

    private final ReactiveHashCommands<String, String, Long> hashes;
    private final ReactiveKeyCommands<String> keys;
    private final ExpiryConfig config;

    public WatchStore(ReactiveRedisDataSource redis, ExpiryConfig config) {
        this.hashes = redis.hash(Long.class);
        this.keys = redis.key();
        this.config = config;
    }

    /** Counts a half message sent for the order (1 for its first watch, more after re-arms). */
    public Uni<Long> recordArmed(String orderNo, Instant deadline) {
        String key = key(orderNo);
        return hashes.hincrby(key, "arms", 1)
                .call(() -> hashes.hset(key, "deadline", deadline.toEpochMilli()))
                .call(() -> keys.pexpireat(key, deadline.plus(config.stateTtlAfterDeadline()).toEpochMilli()));
    }

    /** Counts one check-back and returns the state it should decide on. */
    public Uni<WatchState> recordCheck(String orderNo) {
        String key = key(orderNo);
        return hashes.hincrby(key, "checks", 1)
                .chain(checks -> hashes.hgetall(key))
                .map(WatchStore::toState);
    }

    public Uni<Void> recordQuery(String orderNo, Instant at) {
        String key = key(orderNo);
        return hashes.hincrby(key, "queries", 1)
                .call(() -> hashes.hset(key, "lastQueryAt", at.toEpochMilli()))
                .replaceWithVoid();
    }

    private static WatchState toState(Map<String, Long> fields) {
        Long lastQuery = fields.get("lastQueryAt");
        return new WatchState(fields.getOrDefault("checks", 0L), fields.getOrDefault("queries", 0L),
                lastQuery == null ? null : Instant.ofEpochMilli(lastQuery));
    }

    static String key(String orderNo) {
        return "order:watch:" + orderNo;
    }
}
