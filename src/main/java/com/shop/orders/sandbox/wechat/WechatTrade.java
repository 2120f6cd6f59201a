package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One Native trade as WeChat Pay holds it: NOTPAY until the buyer pays its code (SUCCESS) or the merchant closes it
 * (CLOSED); a code past its time_expire can no longer be paid. Synchronized: buyers, the gateway and the notifier
 * act on it from different threads.
 */
final class WechatTrade {

    static final String OPENID = "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o";

    enum State {
        NOTPAY,
        SUCCESS,
        CLOSED
    }

    final String outTradeNo;
    final String description;
    final int total;
    final String notifyUrl;
    final String codeUrl;
    final Instant createdAt;
    final Instant expiresAt;
    private State state = State.NOTPAY;
    private String transactionId;
    private Instant successTime;
    private int notifyAttempts;
    private boolean notifyAcknowledged;

    WechatTrade(String outTradeNo, String description, int total, String notifyUrl, Instant createdAt,
            Instant expiresAt) {
        this.outTradeNo = outTradeNo;
        this.description = description;
        this.total = total;
        this.notifyUrl = notifyUrl;
        this.createdAt = createdAt;
        this.expiresAt = expiresAt;
        this.codeUrl = "weixin://wxpay/bizpayurl?pr=" + WechatSigning.nonce(7);
    }

    /** The same trade asked for again: WeChat accepts it only with the parameters it was made with. */
    boolean sameAs(String description, int total) {
        return this.description.equals(description) && this.total == total;
    }

    synchronized State state() {
        return state;
    }

    /** The buyer pays; refused (with the reason) when the trade is paid, closed or past its time_expire. */
    synchronized void pay(Instant now) {
        switch (state) {
            case SUCCESS -> throw new WechatBuyerRefused("already paid");
            case CLOSED -> throw new WechatBuyerRefused("the trade is closed");
            case NOTPAY -> {
                if (!now.isBefore(expiresAt)) {
                    throw new WechatBuyerRefused("the code expired at " + expiresAt);
                }
                state = State.SUCCESS;
                successTime = now;
                transactionId = "42000" + ThreadLocalRandom.current().nextLong(1_000_000_000_000_000L,
                        9_999_999_999_999_999L) + "0";
            }
        }
    }

    /** The buyer scans: a closed, paid or expired code cannot be paid, which the wallet says at once. */
    synchronized void scan(Instant now) {
        if (state == State.CLOSED) {
            throw new WechatBuyerRefused("the trade is closed");
        }
        if (state == State.SUCCESS) {
            throw new WechatBuyerRefused("already paid");
        }
        if (!now.isBefore(expiresAt)) {
            throw new WechatBuyerRefused("the code expired at " + expiresAt);
        }
    }

    /** The merchant closes it: false when it is paid (WeChat answers ORDERPAID). */
    synchronized boolean close() {
        if (state == State.SUCCESS) {
            return false;
        }
        state = State.CLOSED;
        return true;
    }

    synchronized void recordNotifyAttempt() {
        notifyAttempts++;
    }

    synchronized void acknowledgeNotify() {
        notifyAcknowledged = true;
    }

    synchronized WechatTradeView view() {
        return new WechatTradeView(outTradeNo, description, total, state.name(), codeUrl, expiresAt, transactionId,
                successTime, notifyAttempts, notifyAcknowledged);
    }
}
