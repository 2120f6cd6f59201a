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

    /**
     * At most this many unpaid (PENDING_PAYMENT) orders per member, so that one account cannot hold a sale's stock
     * and let it expire; 0: no limit.
     */
    @WithDefault("10")
    int maxUnpaidPerMember();

    /**
     * How long placement answers "insufficient stock" for a SKU from memory after the database said so, unless
     * this instance learns sooner that stock came back (an order on it closed, here or on another instance, or a
     * restock here); past it, one placement asks the database again while the others keep the answer. Bounds how
     * long a lost announcement can keep a SKU falsely sold out (plus that one placement); 0: off.
     */
    @WithDefault("1s")
    Duration soldOutMemory();
}
