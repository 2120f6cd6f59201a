package com.shop.orders.sandbox.alipay;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** Settings of the Alipay stand-in; every key has a default so the sandbox needs no configuration. */
@ConfigMapping(prefix = "shop.sandbox")
public interface SandboxConfig {

    /**
     * Waits between notify attempts after a failed one; delivery stops when the list is used up.
     * Compressed by default so tests see retries; Alipay's real one is 4m,10m,10m,1h,2h,6h,15h.
     */
    @WithDefault("1s,2s,4s,8s,15s,30s")
    List<Duration> notifyRetrySchedule();

    /** How long one notify attempt waits for the merchant's answer before counting as failed. */
    @WithDefault("5s")
    Duration notifyTimeout();

    /** QR validity when a precreate gives neither time_expire nor timeout_express. */
    @WithDefault("2h")
    Duration defaultQrValidity();

    /** Alipay refuses requests whose timestamp is further than this from its own clock. */
    @WithDefault("10m")
    Duration maxTimestampSkew();

    /** How long a trade bill's download link works, as at Alipay. */
    @WithDefault("30s")
    Duration billLinkValidity();
}
