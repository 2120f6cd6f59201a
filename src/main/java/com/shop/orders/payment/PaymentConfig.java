package com.shop.orders.payment;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.payment")
public interface PaymentConfig {

    /**
     * Key for the QR image links. Must be the same on every instance; when absent, each
     * instance makes its own at start (fine for one instance, dev and test).
     */
    Optional<String> qrUrlSecret();

    /** How long a QR image link stays valid. */
    @WithDefault("10M")
    Duration qrUrlTtl();
}
