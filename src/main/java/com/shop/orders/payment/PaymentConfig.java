package com.shop.orders.payment;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "shop.payment")
public interface PaymentConfig {

    /**
     * The channels this shop offers buyers, by their API names (alipay, wechat); a request without a channel gets
     * Alipay when it is offered, else the first. Each needs its own settings (shop.alipay.*, shop.wechat.*).
     */
    @WithDefault(PaymentChannels.ORIGINAL)
    List<String> channels();

    /**
     * Key for the QR image links. Must be the same on every instance; when absent, each
     * instance makes its own at start (fine for one instance, dev and test).
     */
    Optional<String> qrUrlSecret();

    /**
     * After one trade paid an order, its other trades are closed at their wallets; a wallet that cannot be reached is
     * asked again this many times, after this backoff (doubling). A trade that stays open and is paid anyway is
     * refunded in full.
     */
    @WithDefault("5")
    int closeOthersRetries();

    @WithDefault("1S")
    Duration closeOthersBackoff();

    /** How long a QR image link stays valid. */
    @WithDefault("10M")
    Duration qrUrlTtl();
}
