package com.shop.orders.payment;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "alipay")
public interface AlipayGatewayConfig {

    @WithDefault("https://openapi.alipay.com/gateway.do")
    String gatewayUrl();

    String appId();

    /** Where Alipay posts the async payment notify: this service's public notify endpoint. */
    String notifyUrl();

    /** Merchant's PKCS#8 private key, bare Base64. A secret: from the environment, never from git. */
    Optional<String> privateKey();

    /** Alipay's X.509 public key, bare Base64. */
    Optional<String> alipayPublicKey();

    @WithDefault("3s")
    Duration connectTimeout();

    @WithDefault("15s")
    Duration readTimeout();
}
