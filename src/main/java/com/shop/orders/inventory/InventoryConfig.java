package com.shop.orders.inventory;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.inventory")
public interface InventoryConfig {

    /**
     * How long placement trusts a SKU's name and price without reading them again. A stale price never
     * reaches an order: the stock lock only succeeds at the price the order was computed with.
     */
    @WithDefault("30s")
    Duration catalogTtl();
}
