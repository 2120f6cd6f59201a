package com.shop.orders.payment.wechat;

/**
 * A notify as it arrived: the Wechatpay-* headers and the raw body, byte for byte what WeChat signed (a body read
 * into objects and written again would not verify).
 */
public record WechatNotifyRequest(String serial, String signature, String timestamp, String nonce,
        String signatureType, String body) {

    /** All that a signature check needs is there (the type may be absent: WECHATPAY2-SHA256-RSA2048). */
    boolean complete() {
        return serial != null && signature != null && timestamp != null && nonce != null && body != null;
    }
}
