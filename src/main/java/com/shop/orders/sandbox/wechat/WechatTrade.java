package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One Native trade as WeChat Pay holds it: NOTPAY until the buyer pays its code (SUCCESS) or the merchant closes it
 * (CLOSED); a code past its time_expire can no longer be paid; a paid trade with a refund is REFUND (WeChat's
 * "转入退款"), at most 50 refunds (a CLOSED one does not count), never more than was paid, a refund interval apart. Synchronized: buyers, the gateway and the notifier
 * act on it from different threads.
 */
final class WechatTrade extends WechatNotified {

    static final String OPENID = "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o";
    /** WeChat's limit of partial refunds per trade. */
    static final int MAX_REFUNDS = 50;

    enum State {
        NOTPAY,
        SUCCESS,
        REFUND,
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
    private final List<WechatRefund> refunds = new ArrayList<>();

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

    synchronized String transactionId() {
        return transactionId;
    }

    /** The buyer pays; refused (with the reason) when the trade is paid, closed or past its time_expire. */
    synchronized void pay(Instant now) {
        scan(now);
        state = State.SUCCESS;
        successTime = now;
        transactionId = "42000" + ThreadLocalRandom.current().nextLong(1_000_000_000_000_000L,
                9_999_999_999_999_999L) + "0";
    }

    /** The buyer scans: a closed, paid or expired code cannot be paid, which the wallet says at once. */
    synchronized void scan(Instant now) {
        if (state == State.CLOSED) {
            throw new WechatBuyerRefused("the trade is closed");
        }
        if (state != State.NOTPAY) {
            throw new WechatBuyerRefused("already paid");
        }
        if (!now.isBefore(expiresAt)) {
            throw new WechatBuyerRefused("the code expired at " + expiresAt);
        }
    }

    /** The merchant closes it: false when it is paid (WeChat answers ORDERPAID). */
    synchronized boolean close() {
        if (state == State.SUCCESS || state == State.REFUND) {
            return false;
        }
        state = State.CLOSED;
        return true;
    }

    /**
     * A new refund of this trade, within what is left to refund, and at least {@code interval} after the trade's
     * previous one (WeChat: a minute); refused as WeChat refuses it.
     */
    synchronized WechatRefund refund(String outRefundNo, int amount, String reason, String notifyUrl, Instant now,
            Duration interval) {
        switch (state) {
            case NOTPAY -> throw WechatRejected.invalidRequest("订单未支付，不能退款");
            case CLOSED -> throw WechatRejected.invalidRequest("订单已关闭，不能退款");
            default -> {
                // paid: SUCCESS or REFUND
            }
        }
        if (!refunds.isEmpty() && refunds.get(refunds.size() - 1).createdAt.plus(interval).isAfter(now)) {
            throw new WechatRejected(429, "FREQUENCY_LIMITED", "同一笔订单退款频率过快，请1分钟后再试");
        }
        int refunded = refunded();
        if (refunded >= total) {
            throw WechatRejected.invalidRequest("订单已全额退款");
        }
        if (refunded + amount > total) {
            throw WechatRejected.invalidRequest("申请退款金额超过订单可退金额");
        }
        if (refunds.stream().filter(WechatRefund::counts).count() >= MAX_REFUNDS) {
            throw WechatRejected.invalidRequest("订单退款次数已达上限(" + MAX_REFUNDS + "次)");
        }
        WechatRefund refund = new WechatRefund(outRefundNo, this, transactionId, amount, reason, notifyUrl, now);
        refunds.add(refund);
        state = State.REFUND;
        return refund;
    }

    private int refunded() {
        return refunds.stream().filter(WechatRefund::counts).mapToInt(refund -> refund.amount).sum();
    }

    @Override
    String notifyUrl() {
        return notifyUrl;
    }

    @Override
    String describe() {
        return "trade " + outTradeNo;
    }

    synchronized WechatTradeView view() {
        return new WechatTradeView(outTradeNo, description, total, state.name(), codeUrl, expiresAt, transactionId,
                successTime, notifyAttempts(), notifyAcknowledged(), refunded(),
                refunds.stream().map(WechatRefund::view).toList());
    }
}
