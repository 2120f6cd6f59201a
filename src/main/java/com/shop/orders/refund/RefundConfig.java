package com.shop.orders.refund;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.refunds")
public interface RefundConfig {

    /** How often PENDING refunds are settled (the refund query, then the same request sent again). */
    @WithDefault("5s")
    Duration settleEvery();

    /**
     * How long a refund being sent is left to the replica sending it before the settler may take it: longer than an
     * Alipay call can last (shop.alipay.read-timeout), so that the settler does not query a refund still in flight.
     */
    @WithDefault("30s")
    Duration claimLease();

    /** Wait after the first attempt whose outcome was not known; it doubles with each further one. */
    @WithDefault("5s")
    Duration retryBackoff();

    /** Longest wait between two attempts to settle a refund. */
    @WithDefault("5M")
    Duration retryBackoffMax();

    /**
     * How often an ABNORMAL refund (stuck at the wallet until a person acts in its merchant console) is asked after
     * with the refund query, so that the person's fix is recorded even when its notify is lost.
     */
    @WithDefault("1h")
    Duration abnormalCheckEvery();

    /** Refunds one settler pass takes at most. */
    @WithDefault("50")
    int settleBatch();
}
