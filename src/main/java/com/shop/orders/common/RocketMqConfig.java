package com.shop.orders.common;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.rocketmq")
public interface RocketMqConfig {

    /** Name server address list, "host:port;host:port". */
    String nameServer();

    @WithDefault("3s")
    Duration sendTimeout();

    /** How often clients refresh topic routes from the name server. */
    @WithDefault("30s")
    Duration pollNameServerInterval();
}
