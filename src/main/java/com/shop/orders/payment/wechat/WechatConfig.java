package com.shop.orders.payment.wechat;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the service talks to WeChat Pay (APIv3, Native payments). Every merchant setting is optional here so that a
 * shop without WeChat starts without them; {@link WechatConfigCheck} refuses a production start that offers WeChat
 * with any of them missing or unusable.
 */
@ConfigMapping(prefix = "shop.wechat")
public interface WechatConfig {

    /** The merchant's number at WeChat Pay (mchid, digits). */
    Optional<String> mchid();

    /** The app id (appid) the merchant number is bound to; a notify for another app is refused. */
    Optional<String> appid();

    /** The serial number of the merchant's API certificate (apiclient_cert.pem), named in every request's signature. */
    Optional<String> merchantSerial();

    /** The merchant's API private key, PKCS#8 PEM (apiclient_key.pem). A secret: from the environment, never from git. */
    Optional<String> privateKey();

    /** The path of the merchant's API private key, when not given as content (a mounted Secret). */
    Optional<String> privateKeyPath();

    /** The APIv3 key (32 characters) notifies and downloaded platform certificates are encrypted with. A secret. */
    Optional<String> apiV3Key();

    /**
     * What WeChat's answers and notifies are verified with: {@code public-key} (WeChat Pay's public key and its ID,
     * below) or {@code certificate} (platform certificates, downloaded from /v3/certificates at the first call and
     * every hour), as the merchant is set up in WeChat's console.
     */
    @WithDefault("public-key")
    Verification verification();

    /** Public-key mode: the ID of WeChat Pay's public key (PUB_KEY_ID_...), the serial its signatures name. */
    Optional<String> publicKeyId();

    /** Public-key mode: WeChat Pay's public key, X.509 PEM (pub_key.pem). */
    Optional<String> publicKey();

    /** Public-key mode: the path of WeChat Pay's public key, when not given as content. */
    Optional<String> publicKeyPath();

    /** Where WeChat posts the payment notify: this service's public https endpoint, without a query string. */
    Optional<String> notifyUrl();

    /**
     * Where WeChat posts the refund notify (how a refund ended, or that it is stuck): this service's public https
     * endpoint for it, without a query string. Named in every refund request.
     */
    Optional<String> refundNotifyUrl();

    /**
     * The least time between two refunds of one trade that this service keeps: a refund asked for sooner is recorded
     * and sent when the interval is over. WeChat's rule is a minute ("1 minute between refunds on the same order");
     * a few seconds more, because WeChat counts from when a refund reached it, a little after this service recorded
     * it as sent, on a clock of its own. Sent too soon anyway, WeChat answers 429 and makes nothing: the refund query
     * finds no refund, and it is sent again.
     */
    @WithDefault("65s")
    Duration refundInterval();

    /**
     * Dev and test only: where WeChat's API is reached instead of https://api.mch.weixin.qq.com (the sandbox). Its path,
     * if any, goes before WeChat's paths. Production never sets it ({@link WechatConfigCheck}).
     */
    Optional<String> baseUrl();

    @WithDefault("3s")
    Duration connectTimeout();

    @WithDefault("5s")
    Duration readTimeout();

    @WithDefault("5s")
    Duration writeTimeout();

    /** Threads for WeChat calls: their own, so a slow WeChat never holds threads anything else needs. */
    @WithDefault("16")
    int threads();

    /** Calls waiting for a WeChat thread; beyond it a call fails at once (503 to members, retried by jobs). */
    @WithDefault("64")
    int queue();
}
