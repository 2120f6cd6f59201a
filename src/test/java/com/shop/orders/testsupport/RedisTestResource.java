package com.shop.orders.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/** Points every {@code @QuarkusTest} at the suite's own Redis ({@link LocalRedis}), started on first use. */
public class RedisTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        LocalRedis redis = LocalRedis.current();
        redis.start(); // a previous test may have left it stopped
        return Map.of("quarkus.redis.hosts", redis.url());
    }

    @Override
    public void stop() {
        // Shared by every test class of the run; stopped when the JVM exits.
    }
}
