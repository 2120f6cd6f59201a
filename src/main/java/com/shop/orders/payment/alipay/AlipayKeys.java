package com.shop.orders.payment.alipay;

/**
 * The key material for talking to Alipay. Every mode signs with the merchant's private key (bare Base64,
 * PKCS#8); public-key mode verifies with Alipay's public key (bare Base64, X.509), certificate mode with the
 * key of Alipay's certificate, checked against Alipay's root ({@link SignMode}).
 */
public interface AlipayKeys {

    String merchantPrivateKey();

    /** Public-key mode. */
    String alipayPublicKey();

    /** Certificate mode: the application public-key certificate, PEM (leaf first when it carries its chain). */
    String appCertificate();

    /** Certificate mode: Alipay's public-key certificate, PEM (leaf first when it carries its chain). */
    String alipayCertificate();

    /** Certificate mode: Alipay's root certificates, PEM. */
    String rootCertificate();
}
