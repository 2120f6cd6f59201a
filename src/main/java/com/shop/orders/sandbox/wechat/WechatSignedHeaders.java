package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * The Wechatpay-* headers of a signed answer or notify, named exactly as WeChat writes them (the SDK looks them up
 * case-sensitively), with the timestamp and serial knobs applied.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatSignedHeaders {

    private final WechatSandboxKeys keys;
    private final WechatFaults faults;

    public WechatSignedHeaders(WechatSandboxKeys keys, WechatFaults faults) {
        this.keys = keys;
        this.faults = faults;
    }

    /** @param body the answer's or notify's body, null for a 204 */
    Map<String, String> of(String body) {
        String timestamp = String.valueOf(Instant.now().plus(faults.timestampSkew()).getEpochSecond());
        String nonce = WechatSigning.nonce(32);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Wechatpay-Timestamp", timestamp);
        headers.put("Wechatpay-Nonce", nonce);
        headers.put("Wechatpay-Serial", faults.wrongSerial() ? "PUB_KEY_ID_NOT_CONFIGURED" : keys.publicKeyId());
        headers.put("Wechatpay-Signature-Type", WechatSigning.SCHEMA);
        headers.put("Wechatpay-Signature", WechatSigning.sign(WechatSigning.answerMessage(timestamp, nonce, body),
                keys.platformPrivateKey()));
        return headers;
    }
}
