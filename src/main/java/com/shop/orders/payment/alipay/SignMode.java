package com.shop.orders.payment.alipay;

/**
 * How an Alipay app signs: with Alipay's public key given as such, or with public-key certificates (the
 * application's, Alipay's and Alipay's root), as the app was set up in Alipay's console. Config values
 * {@code public-key} and {@code certificate}.
 */
public enum SignMode {
    PUBLIC_KEY,
    CERTIFICATE
}
