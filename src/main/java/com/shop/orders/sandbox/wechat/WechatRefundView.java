package com.shop.orders.sandbox.wechat;

import java.time.Instant;

/**
 * A refund as the sandbox's buyer API, page and tests see it. Amounts in fen: the refund's and its trade's total;
 * notified: whether the merchant gave a notify_url (WeChat notifies a refund only then).
 */
public record WechatRefundView(String outRefundNo, String refundId, String outTradeNo, String transactionId,
        int amount, int total, String status, String reason, Instant createdAt, Instant successTime, boolean notified,
        int notifyAttempts, boolean notifyAcknowledged) {
}
