package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One refund as WeChat Pay holds it: PROCESSING when accepted, SUCCESS once the money is back with the buyer (after
 * the sandbox's refund delay), or ABNORMAL when it could not be paid back (the fault knob abnormalRefunds) until a
 * person resolves it in the merchant console: SUCCESS, or CLOSED (nothing moved). Synchronized: the gateway, the
 * settling timer, the console and the notifier act on it.
 */
final class WechatRefund extends WechatNotified {

    enum Status {
        PROCESSING,
        SUCCESS,
        ABNORMAL,
        CLOSED
    }

    final String outRefundNo;
    final String refundId;
    final String outTradeNo;
    final String transactionId;
    /** Fen, as WeChat counts: this refund's and its trade's. */
    final int amount;
    final int total;
    final String reason;
    final String notifyUrl;
    final Instant createdAt;
    private Status status = Status.PROCESSING;
    private Instant successTime;

    WechatRefund(String outRefundNo, WechatTrade trade, String transactionId, int amount, String reason,
            String notifyUrl, Instant createdAt) {
        this.outRefundNo = outRefundNo;
        this.refundId = "50300" + ThreadLocalRandom.current().nextLong(100_000_000_000_000_000L,
                999_999_999_999_999_999L) + "000000";
        this.outTradeNo = trade.outTradeNo;
        this.transactionId = transactionId;
        this.amount = amount;
        this.total = trade.total;
        this.reason = reason;
        this.notifyUrl = notifyUrl;
        this.createdAt = createdAt;
    }

    /** The same refund asked for again: WeChat refunds once per number, for the trade and amount it was made with. */
    boolean sameAs(String outTradeNo, int amount) {
        return this.outTradeNo.equals(outTradeNo) && this.amount == amount;
    }

    /** The refund delay is over: SUCCESS, or ABNORMAL when {@code abnormal}; false when it was no longer processing. */
    synchronized boolean settle(Instant now, boolean abnormal) {
        if (status != Status.PROCESSING) {
            return false;
        }
        status = abnormal ? Status.ABNORMAL : Status.SUCCESS;
        successTime = abnormal ? null : now;
        return true;
    }

    /** A person in the merchant console ends an ABNORMAL refund: SUCCESS or CLOSED; false when it is not ABNORMAL. */
    synchronized boolean resolve(boolean success, Instant now) {
        if (status != Status.ABNORMAL) {
            return false;
        }
        status = success ? Status.SUCCESS : Status.CLOSED;
        successTime = success ? now : null;
        return true;
    }

    /** Whether it takes money of its trade and counts against WeChat's 50 a trade: all but a CLOSED one. */
    synchronized boolean counts() {
        return status != Status.CLOSED;
    }

    synchronized Status status() {
        return status;
    }

    @Override
    String notifyUrl() {
        return notifyUrl;
    }

    @Override
    String describe() {
        return "refund " + outRefundNo;
    }

    synchronized WechatRefundView view() {
        return new WechatRefundView(outRefundNo, refundId, outTradeNo, transactionId, amount, total, status.name(),
                reason, createdAt, successTime, notifyUrl != null, notifyAttempts(), notifyAcknowledged());
    }
}
