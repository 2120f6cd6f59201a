package com.shop.orders.payment.wechat;

import jakarta.ws.rs.HeaderParam;

import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** The Wechatpay-* headers a notify (payment, refund) is verified with, as its endpoint takes them. */
public class WechatNotifyHeaders {

    @Parameter(description = "WeChat Pay's public-key ID or platform certificate serial the body is signed under")
    @HeaderParam("Wechatpay-Serial")
    String serial;

    @Parameter(description = "Base64 SHA256withRSA signature of timestamp, nonce and body")
    @HeaderParam("Wechatpay-Signature")
    String signature;

    @Parameter(description = "Seconds since the epoch, signed")
    @HeaderParam("Wechatpay-Timestamp")
    String timestamp;

    @Parameter(description = "Random string, signed")
    @HeaderParam("Wechatpay-Nonce")
    String nonce;

    @Parameter(description = "WECHATPAY2-SHA256-RSA2048 (the default when absent)")
    @HeaderParam("Wechatpay-Signature-Type")
    String signatureType;

    /** The notify: these headers and the raw body they sign. */
    WechatNotifyRequest with(String body) {
        return new WechatNotifyRequest(serial, signature, timestamp, nonce, signatureType, body);
    }
}
