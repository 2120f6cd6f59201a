package com.shop.orders.sandbox;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;

/** The keys both wallets' sandboxes make: fresh RSA-2048 pairs, as both wallets use. */
public final class KeyPairs {

    private KeyPairs() {
    }

    public static KeyPair newRsaPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("RSA is mandatory in every JDK", e);
        }
    }
}
