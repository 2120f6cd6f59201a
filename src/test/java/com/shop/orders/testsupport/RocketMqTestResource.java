package com.shop.orders.testsupport;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Real RocketMQ name server + broker (separate JVMs, see {@link LocalRocketMq}) for {@code @QuarkusTest}s, with
 * transaction checks fast enough for tests: first check after 1 s, then every 1 s, at most 5 (fewer than an
 * order's pay window in tests lasts, so that every order's expiry message is renewed once).
 *
 * <p>One broker serves the whole run: a broker already started in this JVM (system properties of
 * {@link LocalRocketMq#start()}) is reused, and the one started here is left running when Quarkus stops the resources
 * (a test profile restarts the application, not the broker: starting one takes a large part of a minute) and stopped
 * when the JVM exits (LocalRocketMq's shutdown hook). Tests can stop/restart the broker with
 * {@code LocalRocketMq.current()}.
 */
public class RocketMqTestResource implements QuarkusTestResourceLifecycleManager {

    public static final int TEST_CHECK_MAX = 5;

    @Override
    public Map<String, String> start() {
        LocalRocketMq rocketMq = LocalRocketMq.currentIfRunning();
        if (rocketMq != null) {
            rocketMq.startBroker(); // no-op when running; a previous test may have left it stopped
        } else {
            rocketMq = LocalRocketMq.create()
                    .transactionTimeoutMs(1000)
                    .transactionCheckIntervalMs(1000)
                    .transactionCheckMax(TEST_CHECK_MAX)
                    .transactionOpBatchIntervalMs(200)
                    .start();
        }
        rocketMq.createTopics(topics().toArray(String[]::new));
        return Map.of(
                "shop.rocketmq.name-server", rocketMq.nameServerAddress(),
                "shop.expiry.broker-check-max", Integer.toString(TEST_CHECK_MAX));
    }

    @Override
    public void stop() {
        // Kept for the next test profile's application; stopped when the JVM exits.
    }

    private static Set<String> topics() {
        Set<String> topics = new LinkedHashSet<>();
        topics.add("order-expiry");
        topics.add("order-paid");
        topics.add("order-refunded");
        try {
            var config = ConfigProvider.getConfig();
            config.getOptionalValue("shop.expiry.topic", String.class).ifPresent(topics::add);
            config.getOptionalValue("shop.events.paid-topic", String.class).ifPresent(topics::add);
            config.getOptionalValue("shop.events.refunded-topic", String.class).ifPresent(topics::add);
        } catch (RuntimeException | LinkageError e) {
            // no config available this early: the defaults above
        }
        return topics;
    }
}
