package com.shop.orders.payment;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How the service talks to Alipay's openapi gateway. */
@ConfigMapping(prefix = "shop.alipay")
public interface AlipayConfig {

    @WithDefault("https://openapi.alipay.com/gateway.do")
    String gatewayUrl();

    /** The merchant application's id at Alipay. */
    String appId();

    /** Where Alipay posts the async payment notify: this service's public notify endpoint. */
    String notifyUrl();

    /** Merchant's PKCS#8 private key, bare Base64. A secret: from the environment, never from git. */
    Optional<String> privateKey();

    /** Alipay's X.509 public key, bare Base64. */
    Optional<String> alipayPublicKey();

    /**
     * The merchant's Alipay account (2088...). When set, a notify for another seller is refused: a signed
     * notify is Alipay's word about some trade, not necessarily about ours.
     */
    Optional<String> sellerId();

    @WithDefault("3s")
    Duration connectTimeout();

    @WithDefault("15s")
    Duration readTimeout();

    /** Threads for Alipay calls: their own, so a slow Alipay never holds threads anything else needs. */
    @WithDefault("16")
    int threads();

    /** Calls waiting for an Alipay thread; beyond it a call fails at once (503 to members, retried by jobs). */
    @WithDefault("64")
    int queue();
}
