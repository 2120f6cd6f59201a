package com.shop.orders.payment.wechat;

/**
 * How WeChat Pay's answers and notifies are verified: with WeChat Pay's public key (newer merchants, and where WeChat
 * moves everyone) or with its platform certificates, downloaded and refreshed by the SDK. Config values
 * {@code public-key} and {@code certificate}.
 */
public enum Verification {
    PUBLIC_KEY,
    CERTIFICATE
}
