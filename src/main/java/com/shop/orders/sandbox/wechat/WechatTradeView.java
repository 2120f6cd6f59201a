package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.List;

/**
 * A trade as the sandbox's buyer API, page and tests see it. Amounts in fen, as WeChat counts; refunded: the sum of
 * its refunds, processing ones included (they are the buyer's money already on its way back).
 */
public record WechatTradeView(String outTradeNo, String description, int total, String tradeState, String codeUrl,
        Instant expiresAt, String transactionId, Instant successTime, int notifyAttempts, boolean notifyAcknowledged,
        int refunded, List<WechatRefundView> refunds) {
}
