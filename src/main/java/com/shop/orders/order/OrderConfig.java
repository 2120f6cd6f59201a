package com.shop.orders.order;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.order")
public interface OrderConfig {

    /** Time a member has to pay after placing an order; fixed at placement, never extended. */
    @WithDefault("5M")
    Duration payTimeout();

    @WithDefault("50")
    int maxLines();

    @WithDefault("999")
    int maxQuantity();
}
