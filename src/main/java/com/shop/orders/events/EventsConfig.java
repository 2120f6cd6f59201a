package com.shop.orders.events;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.events")
public interface EventsConfig {

    /** Topic of the "order paid" events, keyed by order number. */
    @WithDefault("order-paid")
    String paidTopic();

    /** Topic of the "order refunded" events, keyed by order number, one per completed refund. */
    @WithDefault("order-refunded")
    String refundedTopic();

    @WithDefault("order-events-producer")
    String producerGroup();

    /** How often the outbox is relayed to RocketMQ. */
    @WithDefault("1s")
    Duration relayEvery();

    /** Events one relay pass claims at most. */
    @WithDefault("200")
    int relayBatch();

    /** How long a claimed event is left to the relay that claimed it; after that another may take it. */
    @WithDefault("30s")
    Duration claimLease();

    /** Wait after the first failed publication of an event; it doubles with each further failure. */
    @WithDefault("2s")
    Duration retryBackoff();

    /** Longest wait between two attempts to publish an event. */
    @WithDefault("5M")
    Duration retryBackoffMax();
}
