package com.shop.orders.live;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Live order status: the event stream a checkout page follows until its order is paid or closed. */
@ConfigMapping(prefix = "shop.live-status")
public interface LiveStatusConfig {

    /**
     * Between two heartbeat comments on an open stream. Proxies and load balancers close connections that
     * stay silent for long (often 30-60 s); a heartbeat also lets the server notice a client that is gone.
     */
    @WithDefault("15s")
    Duration heartbeat();

    /**
     * Between two reads of an open stream's order from the database. Transitions are announced to every
     * instance on a best-effort basis (Redis pub/sub); this bounds how late a stream learns of one whose
     * announcement was lost.
     */
    @WithDefault("30s")
    Duration recheckEvery();

    /**
     * Open streams of one order on one instance. A checkout page needs one; a few more cover a reload while the old
     * connection is still being noticed as gone. The next one is refused (429).
     */
    @WithDefault("5")
    int maxStreamsPerOrder();

    /** Open streams of one member on one instance, over all their orders. The next one is refused (429). */
    @WithDefault("20")
    int maxStreamsPerMember();

    /** The Retry-After of a refused stream: about when a page that gave up an old stream may try again. */
    @WithDefault("30s")
    Duration refusedRetryAfter();
}
