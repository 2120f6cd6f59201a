package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.util.List;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the WeChat Pay stand-in; every key has a default so the sandbox needs no configuration. */
@ConfigMapping(prefix = "shop.wechat-sandbox")
public interface WechatSandboxConfig {

    /** What a signed answer or notify names in Wechatpay-Serial, and so what the merchant verifies it with. */
    enum SignedWith {
        /** The WeChat Pay public key (PUB_KEY_ID_…), as for merchants since 2024. */
        PUBLIC_KEY,
        /** The platform certificate that GET /v3/certificates serves (its serial). */
        CERTIFICATE
    }

    /** The one merchant the sandbox serves. */
    @WithDefault("1900000001")
    String mchid();

    /** The app the merchant is bound to. */
    @WithDefault("wxd678efh567hg6787")
    String appid();

    /**
     * Waits between notify attempts after a failed one; delivery stops when the list is used up. Compressed so that
     * tests see retries; WeChat's own is 15s,15s,30s,3m,10m,20m,30m,30m,30m,60m,3h,3h,3h,6h,6h.
     */
    @WithDefault("1s,1s,2s,4s,8s,15s,30s")
    List<Duration> notifyRetrySchedule();

    /** How long one notify attempt waits for the merchant's answer before counting as failed (WeChat: 5 s). */
    @WithDefault("5s")
    Duration notifyTimeout();

    /** How long a code_url can be paid when the prepay gave no time_expire (WeChat: 2 hours per code). */
    @WithDefault("2h")
    Duration codeUrlValidity();

    /**
     * How long an accepted refund stays PROCESSING before it is SUCCESS (and notified, when it named a notify_url).
     * WeChat's take from seconds to days; short here so that people and tests see both states.
     */
    @WithDefault("1s")
    Duration refundDelay();

    /**
     * The least time between two refunds of one trade (WeChat: a minute); a refund asked for sooner is answered 429
     * FREQUENCY_LIMITED and not made. The fault knob refundInterval changes it until the knobs are reset.
     */
    @WithDefault("60s")
    Duration refundInterval();

    /**
     * What notifies are signed under: public-key or certificate, to match how the merchant verifies them. Answers
     * follow what each request's Wechatpay-Serial names instead, as WeChat's during the switch-over. The fault knob
     * notifiesSignedWith changes it until the knobs are reset.
     */
    @WithDefault("public-key")
    SignedWith notifiesSignedWith();
}
