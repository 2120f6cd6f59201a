package com.shop.orders.sandbox.wechat;

import java.time.Instant;

/** A trade as the sandbox's buyer API, page and tests see it. Amount in fen, as WeChat counts. */
public record WechatTradeView(String outTradeNo, String description, int total, String tradeState, String codeUrl,
        Instant expiresAt, String transactionId, Instant successTime, int notifyAttempts, boolean notifyAcknowledged) {
}
