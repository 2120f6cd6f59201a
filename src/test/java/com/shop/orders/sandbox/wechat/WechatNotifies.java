package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Notifies as WeChat Pay sends them, for tests of a merchant's notify endpoint: the envelope with the resource
 * encrypted under the APIv3 key, and the Wechatpay-* headers signed with the sandbox's platform key (or not).
 */
public final class WechatNotifies {

    private WechatNotifies() {
    }

    /** The notify's body: {@code resource} (a transaction's JSON) encrypted with {@code apiV3Key}. */
    public static String envelope(String eventType, String apiV3Key, String resource) {
        return envelope(eventType, apiV3Key, "transaction", resource);
    }

    /** The notify's body: {@code resource} of its type ("transaction", "refund") encrypted with {@code apiV3Key}. */
    public static String envelope(String eventType, String apiV3Key, String originalType, String resource) {
        String nonce = WechatSigning.nonce(12);
        return "{\"id\":\"" + UUID.randomUUID() + "\",\"create_time\":\"" + WechatTime.format(Instant.now())
                + "\",\"resource_type\":\"encrypt-resource\",\"event_type\":\"" + eventType
                + "\",\"summary\":\"支付成功\",\"resource\":{\"original_type\":\"" + originalType + "\","
                + "\"algorithm\":\"AEAD_AES_256_GCM\",\"ciphertext\":\""
                + WechatSigning.encrypt(apiV3Key, originalType, nonce, resource)
                + "\",\"associated_data\":\"" + originalType + "\",\"nonce\":\"" + nonce + "\"}}";
    }

    /** Headers of {@code body} signed with WeChat Pay's platform key and named by its public-key ID. */
    public static Map<String, String> signed(WechatSandboxKeys keys, String body) {
        return signed(keys, body, keys.publicKeyId());
    }

    /** The same, named by {@code serial}: a key the merchant does not know when it is not the ID. */
    public static Map<String, String> signed(WechatSandboxKeys keys, String body, String serial) {
        return signedWith(keys.platformPrivateKey(), body, serial);
    }

    /** Headers of {@code body} signed with another key, under WeChat Pay's ID: a forgery. */
    public static Map<String, String> forged(WechatSandboxKeys keys, String body) {
        return signedWith(com.shop.orders.sandbox.KeyPairs.newRsaPair().getPrivate(), body, keys.publicKeyId());
    }

    private static Map<String, String> signedWith(java.security.PrivateKey key, String body, String serial) {
        String timestamp = String.valueOf(Instant.now().getEpochSecond());
        String nonce = WechatSigning.nonce(32);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Wechatpay-Timestamp", timestamp);
        headers.put("Wechatpay-Nonce", nonce);
        headers.put("Wechatpay-Serial", serial);
        headers.put("Wechatpay-Signature-Type", WechatSigning.SCHEMA);
        headers.put("Wechatpay-Signature", WechatSigning.sign(WechatSigning.answerMessage(timestamp, nonce, body), key));
        return headers;
    }
}
