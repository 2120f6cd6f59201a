package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.sandbox.wechat.WechatSandboxConfig.SignedWith;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * The Wechatpay-* headers of a signed answer or notify, named exactly as WeChat writes them (the SDK looks them up
 * case-sensitively), with the timestamp and serial knobs applied. The signature is the platform key's either way;
 * Wechatpay-Serial names the public-key ID or the platform certificate's serial, whichever the merchant verifies with.
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

    /**
     * What an answer is signed under: what the request's Wechatpay-Serial names, as WeChat answers during the
     * switch-over from certificates to the public key; a request naming neither (the SDK's certificate download
     * sends an empty one) is answered as notifies are signed.
     */
    SignedWith answering(String requestSerial) {
        if (keys.publicKeyId().equals(requestSerial)) {
            return SignedWith.PUBLIC_KEY;
        }
        return keys.platformCertificateSerial().equals(requestSerial) ? SignedWith.CERTIFICATE
                : faults.notifiesSignedWith();
    }

    Map<String, String> notify(String body) {
        return of(body, faults.notifiesSignedWith());
    }

    /**
     * @param body the answer's or notify's body, null for a 204
     * @param signedWith under the certificate only while there is one to download; the public key otherwise
     */
    Map<String, String> of(String body, SignedWith signedWith) {
        String timestamp = String.valueOf(Instant.now().plus(faults.timestampSkew()).getEpochSecond());
        String nonce = WechatSigning.nonce(32);
        boolean certificate = signedWith == SignedWith.CERTIFICATE && !faults.certificatesNotFound();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Wechatpay-Timestamp", timestamp);
        headers.put("Wechatpay-Nonce", nonce);
        headers.put("Wechatpay-Serial", faults.wrongSerial() ? "PUB_KEY_ID_NOT_CONFIGURED"
                : certificate ? keys.platformCertificateSerial() : keys.publicKeyId());
        headers.put("Wechatpay-Signature-Type", WechatSigning.SCHEMA);
        headers.put("Wechatpay-Signature", WechatSigning.sign(WechatSigning.answerMessage(timestamp, nonce, body),
                keys.platformPrivateKey()));
        return headers;
    }
}
