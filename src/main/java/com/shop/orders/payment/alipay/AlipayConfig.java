package com.shop.orders.payment.alipay;

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

    /** Public-key mode: Alipay's X.509 public key, bare Base64. */
    Optional<String> alipayPublicKey();

    /**
     * How requests are signed and Alipay's answers and notifies verified: {@code public-key} (Alipay's public key
     * above) or {@code certificate} (the three certificates below), as the app is set up at Alipay.
     */
    @WithDefault("public-key")
    SignMode signMode();

    /** Certificate mode: the application public-key certificate (appCertPublicKey_*.crt), PEM content. */
    Optional<String> appCert();

    /** Certificate mode: the path of the application public-key certificate, when not given as content. */
    Optional<String> appCertPath();

    /** Certificate mode: Alipay's public-key certificate (alipayCertPublicKey_RSA2.crt), PEM content. */
    Optional<String> alipayCert();

    /** Certificate mode: the path of Alipay's public-key certificate, when not given as content. */
    Optional<String> alipayCertPath();

    /** Certificate mode: Alipay's root certificate (alipayRootCert.crt, several certificates), PEM content. */
    Optional<String> rootCert();

    /** Certificate mode: the path of Alipay's root certificate, when not given as content. */
    Optional<String> rootCertPath();

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
