package com.shop.orders.sandbox.wechat;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * WeChat Pay APIv3's cryptography, from the wallet's side: a merchant's request signature checked over the raw path
 * and query (WECHATPAY2-SHA256-RSA2048), answers and notifies signed with the platform's key, a notify's resource
 * encrypted with the merchant's APIv3 key (AEAD_AES_256_GCM). Pure functions, so that the official SDK can be set
 * against each of them in a unit test.
 */
public final class WechatSigning {

    public static final String SCHEMA = "WECHATPAY2-SHA256-RSA2048";
    private static final String SIGNATURE_ALGORITHM = "SHA256withRSA";
    private static final int GCM_TAG_BITS = 128;
    private static final String NONCE_CHARACTERS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final Pattern TOKEN_FIELD = Pattern.compile("(\\w+)=\"([^\"]*)\"");
    private static final SecureRandom RANDOM = new SecureRandom();

    private WechatSigning() {
    }

    /** The five fields of an Authorization header, or none when it is not WeChat Pay's schema. */
    public record Authorization(String mchid, String nonce, String timestamp, String serialNo, String signature) {

        public static Authorization parse(String header) {
            if (header == null || !header.startsWith(SCHEMA + " ")) {
                return null;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            Matcher matcher = TOKEN_FIELD.matcher(header.substring(SCHEMA.length() + 1));
            while (matcher.find()) {
                fields.put(matcher.group(1), matcher.group(2));
            }
            Authorization parsed = new Authorization(fields.get("mchid"), fields.get("nonce_str"),
                    fields.get("timestamp"), fields.get("serial_no"), fields.get("signature"));
            return parsed.complete() ? parsed : null;
        }

        private boolean complete() {
            return mchid != null && nonce != null && timestamp != null && serialNo != null && signature != null;
        }
    }

    /** What a merchant signs: method, the raw path with its query, timestamp, nonce and body, a line each. */
    public static String requestMessage(String method, String rawPathAndQuery, String timestamp, String nonce,
            String body) {
        return method + "\n" + rawPathAndQuery + "\n" + timestamp + "\n" + nonce + "\n" + (body == null ? "" : body)
                + "\n";
    }

    /** What the wallet signs in an answer or a notify: timestamp, nonce and body (empty for a 204), a line each. */
    public static String answerMessage(String timestamp, String nonce, String body) {
        return timestamp + "\n" + nonce + "\n" + (body == null ? "" : body) + "\n";
    }

    public static String sign(String message, PrivateKey key) {
        try {
            Signature signer = Signature.getInstance(SIGNATURE_ALGORITHM);
            signer.initSign(key);
            signer.update(message.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with SHA256withRSA", e);
        }
    }

    public static boolean verify(String message, String signature, PublicKey key) {
        try {
            Signature verifier = Signature.getInstance(SIGNATURE_ALGORITHM);
            verifier.initVerify(key);
            verifier.update(message.getBytes(StandardCharsets.UTF_8));
            return verifier.verify(Base64.getDecoder().decode(signature));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }

    /** A notify's resource: Base64 of the ciphertext and its tag, under the APIv3 key (32 bytes of UTF-8). */
    public static String encrypt(String apiV3Key, String associatedData, String nonce, String plaintext) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(apiV3Key.getBytes(StandardCharsets.UTF_8), "AES"),
                    new GCMParameterSpec(GCM_TAG_BITS, nonce.getBytes(StandardCharsets.UTF_8)));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt with AEAD_AES_256_GCM", e);
        }
    }

    /** Random letters and digits, as WeChat's nonces (32 for signatures, 12 for a resource's GCM nonce). */
    public static String nonce(int length) {
        StringBuilder nonce = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            nonce.append(NONCE_CHARACTERS.charAt(RANDOM.nextInt(NONCE_CHARACTERS.length())));
        }
        return nonce.toString();
    }
}
