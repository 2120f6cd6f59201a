package com.shop.orders.rocketmq;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The connection every RocketMQ client of the service shares. */
@ConfigMapping(prefix = "shop.rocketmq")
public interface RocketMqConfig {

    /** Name server address list, "host:port;host:port". */
    @WithDefault("127.0.0.1:9876")
    String nameServer();

    /** Longest one send may take before it fails. */
    @WithDefault("3s")
    Duration sendTimeout();

    /** How often clients refresh topic routes from the name server (also how soon they see a broker return). */
    @WithDefault("30s")
    Duration pollNameServerInterval();

    /** Threads for blocking sends (expiry messages, outbox events); their own, never Alipay's or the default pool. */
    @WithDefault("8")
    int sendThreads();

    /** Sends waiting for a send thread; beyond it a send fails at once and is retried by its owner. */
    @WithDefault("2000")
    int sendQueue();
}
