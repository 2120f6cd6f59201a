package com.shop.orders.inventory;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.inventory")
public interface InventoryConfig {

    /**
     * How long placement trusts a SKU's name, price, purchase limit and bucket layout without reading them again. A
     * stale one never reaches an order: the stock lock only succeeds at the price and limit the order was computed
     * with (on a bucketed SKU: at the SKU's version, which every change of them moves on).
     */
    @WithDefault("30s")
    Duration catalogTtl();

    /**
     * How long placement avoids a bucket it found without the units an order needed, unless a release or a restock
     * announces units back sooner. Only steers which bucket is tried first.
     */
    @WithDefault("2s")
    Duration emptyBucketMemory();
}
