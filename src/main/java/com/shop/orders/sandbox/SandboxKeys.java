package com.shop.orders.sandbox;

import com.shop.orders.payment.AlipayKeys;
import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Base64;

/**
 * Fresh RSA-2048 keys for every start of a dev or test build: the merchant's pair (the application signs
 * with its private half) and "Alipay's" pair (the sandbox signs answers and notifies with its private half).
 * Being a plain bean it takes precedence over the application's {@code @DefaultBean} reading real keys.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxKeys implements AlipayKeys {

    private final KeyPair merchant;
    private final KeyPair alipay;

    public SandboxKeys() {
        this.merchant = newRsaPair();
        this.alipay = newRsaPair();
    }

    /** PKCS#8, bare Base64: what the application hands to DefaultAlipayClient as its private key. */
    @Override
    public String merchantPrivateKey() {
        return base64(merchant.getPrivate().getEncoded());
    }

    /** X.509, bare Base64: the key the application verifies answers and notifies with. */
    @Override
    public String alipayPublicKey() {
        return base64(alipay.getPublic().getEncoded());
    }

    /** X.509, bare Base64: the "application public key" a merchant would upload to Alipay. */
    public String merchantPublicKey() {
        return base64(merchant.getPublic().getEncoded());
    }

    /** PKCS#8, bare Base64: Alipay's secret, known only to the sandbox. */
    public String alipayPrivateKey() {
        return base64(alipay.getPrivate().getEncoded());
    }

    PublicKey merchantVerificationKey() {
        return merchant.getPublic();
    }

    PrivateKey alipaySigningKey() {
        return alipay.getPrivate();
    }

    private static KeyPair newRsaPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("RSA is mandatory in every JDK", e);
        }
    }

    private static String base64(byte[] encoded) {
        return Base64.getEncoder().encodeToString(encoded);
    }
}
