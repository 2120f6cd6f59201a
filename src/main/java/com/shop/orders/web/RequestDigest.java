package com.shop.orders.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Identifies the content of a request made with an Idempotency-Key (SHA-256 of a canonical form, in hex), so that
 * a key reused with a different body is told apart from a retry.
 */
public final class RequestDigest {

    private RequestDigest() {
    }

    public static String of(String canonical) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
