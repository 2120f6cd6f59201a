package com.shop.orders.sandbox.alipay;

import com.shop.orders.payment.alipay.AlipayKeys;
import com.shop.orders.sandbox.KeyPairs;
import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.Base64;

/**
 * Fresh RSA-2048 keys for every start of a dev or test build: the merchant's pair (the application signs
 * with its private half) and "Alipay's" pair (the sandbox signs answers and notifies with its private half),
 * with the certificates of certificate mode for both, issued by a root CA of the sandbox's own.
 * Being a plain bean it takes precedence over the application's {@code @DefaultBean} reading real keys.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxKeys implements AlipayKeys {

    private final KeyPair merchant;
    private final KeyPair alipay;
    private final SandboxCertificates certificates;

    public SandboxKeys() {
        this.merchant = KeyPairs.newRsaPair();
        this.alipay = KeyPairs.newRsaPair();
        this.certificates = new SandboxCertificates(merchant.getPublic(), alipay);
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

    /** PEM: the application public-key certificate, issued by the sandbox's root for the merchant's key. */
    @Override
    public String appCertificate() {
        return certificates.appPem();
    }

    /** PEM: Alipay's public-key certificate as first issued (the fault knobs can make the sandbox answer under others). */
    @Override
    public String alipayCertificate() {
        return certificates.alipayPem();
    }

    /** PEM: the sandbox's root certificate. */
    @Override
    public String rootCertificate() {
        return certificates.rootPem();
    }

    SandboxCertificates certificates() {
        return certificates;
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

    private static String base64(byte[] encoded) {
        return Base64.getEncoder().encodeToString(encoded);
    }
}
