package com.shop.orders.sandbox.alipay;

import java.nio.charset.Charset;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Alipay's RSA signing rules, written from the protocol description (independent of the SDK under test). */
final class AlipaySigning {

    private AlipaySigning() {
    }

    /**
     * The text Alipay signs for a parameter set: every key not excluded and with a non-empty value,
     * sorted by key, as {@code k=v} joined with {@code &}, values as decoded (no URL encoding).
     */
    static String contentToSign(Map<String, String> params, Set<String> excludedKeys) {
        StringBuilder content = new StringBuilder();
        new TreeMap<>(params).forEach((key, value) -> {
            if (excludedKeys.contains(key) || key.isEmpty() || value == null || value.isEmpty()) {
                return;
            }
            if (content.length() > 0) {
                content.append('&');
            }
            content.append(key).append('=').append(value);
        });
        return content.toString();
    }

    static String sign(String content, PrivateKey key, String signType, Charset charset) {
        try {
            Signature signer = Signature.getInstance(algorithm(signType));
            signer.initSign(key);
            signer.update(content.getBytes(charset));
            return Base64.getEncoder().encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with the sandbox's own key", e);
        }
    }

    /** False for any malformed signature as well: the gateway answers both the same way. */
    static boolean verify(String content, String base64Signature, PublicKey key, String signType, Charset charset) {
        try {
            Signature verifier = Signature.getInstance(algorithm(signType));
            verifier.initVerify(key);
            verifier.update(content.getBytes(charset));
            return verifier.verify(Base64.getMimeDecoder().decode(base64Signature));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    static boolean supports(String signType) {
        return "RSA2".equals(signType) || "RSA".equals(signType);
    }

    private static String algorithm(String signType) {
        return "RSA".equals(signType) ? "SHA1withRSA" : "SHA256withRSA";
    }
}
