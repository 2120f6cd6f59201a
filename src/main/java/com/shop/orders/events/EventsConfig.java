package com.shop.orders.events;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "events")
public interface EventsConfig {

    /** Topic of the "order paid" events, keyed by order number. */
    @WithDefault("order-paid")
    String paidTopic();

    @WithDefault("order-events-producer")
    String producerGroup();

    /** How often the outbox is relayed to RocketMQ. */
    @WithDefault("1s")
    Duration relayEvery();

    @WithDefault("100")
    int relayBatch();
}
