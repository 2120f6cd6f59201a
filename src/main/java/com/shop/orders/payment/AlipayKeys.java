package com.shop.orders.payment;

/** The RSA keys used to talk to Alipay: bare Base64, PKCS#8 private key, X.509 public key. */
public interface AlipayKeys {

    String merchantPrivateKey();

    String alipayPublicKey();
}
