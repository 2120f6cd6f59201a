package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * The sandbox's trades by out_trade_no and by code, their refunds by out_refund_no, and how often each API was
 * called for each.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatTrades {

    private final Map<String, WechatTrade> byOutTradeNo = new ConcurrentHashMap<>();
    private final Map<String, WechatTrade> byCodeUrl = new ConcurrentHashMap<>();
    private final Map<String, WechatRefund> byOutRefundNo = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    /** The trade made now, or the one made before with the same number (null when the parameters differ). */
    WechatTrade prepare(String outTradeNo, String description, int total, String notifyUrl, Instant now,
            Instant expiresAt) {
        WechatTrade trade = byOutTradeNo.computeIfAbsent(outTradeNo,
                no -> new WechatTrade(no, description, total, notifyUrl, now, expiresAt));
        byCodeUrl.putIfAbsent(trade.codeUrl, trade);
        return trade.sameAs(description, total) ? trade : null;
    }

    Optional<WechatTrade> find(String outTradeNo) {
        return Optional.ofNullable(byOutTradeNo.get(outTradeNo));
    }

    Optional<WechatTrade> byTransactionId(String transactionId) {
        return byOutTradeNo.values().stream().filter(trade -> transactionId.equals(trade.transactionId()))
                .findFirst();
    }

    /** A refund asked for: made now, or made before under the same number (then made is false). */
    record Refunding(WechatRefund refund, boolean made) {
    }

    /**
     * The refund under this number: the one made before for the same trade and amount (WeChat refunds once per
     * out_refund_no, which is unique per merchant), or a new one. One at a time, so that two calls with one number
     * cannot both move money.
     */
    synchronized Refunding refund(WechatTrade trade, String outRefundNo, int amount, String reason, String notifyUrl,
            Instant now, Duration interval) {
        WechatRefund before = byOutRefundNo.get(outRefundNo);
        if (before != null) {
            if (!before.sameAs(trade.outTradeNo, amount)) {
                throw WechatRejected.invalidRequest("订单金额或退款金额与之前请求不一致，请核实后再试");
            }
            return new Refunding(before, false);
        }
        WechatRefund made = trade.refund(outRefundNo, amount, reason, notifyUrl, now, interval);
        byOutRefundNo.put(outRefundNo, made);
        return new Refunding(made, true);
    }

    Optional<WechatRefund> findRefund(String outRefundNo) {
        return Optional.ofNullable(byOutRefundNo.get(outRefundNo));
    }

    public Optional<WechatRefundView> refund(String outRefundNo) {
        return findRefund(outRefundNo).map(WechatRefund::view);
    }

    Optional<WechatTrade> byCodeUrl(String codeUrl) {
        return Optional.ofNullable(byCodeUrl.get(codeUrl));
    }

    public Optional<WechatTradeView> trade(String outTradeNo) {
        return find(outTradeNo).map(WechatTrade::view);
    }

    /** Newest first. */
    public List<WechatTradeView> trades() {
        return byOutTradeNo.values().stream().sorted(Comparator.comparing((WechatTrade t) -> t.createdAt).reversed())
                .map(WechatTrade::view).toList();
    }

    void called(String method, String number) {
        calls.computeIfAbsent(method + " " + number, key -> new AtomicInteger()).incrementAndGet();
    }

    /**
     * How often {@code method} was called for the number: prepay, query and close for an out_trade_no, refund and
     * refundQuery for an out_refund_no.
     */
    public int calls(String method, String number) {
        AtomicInteger count = calls.get(method + " " + number);
        return count == null ? 0 : count.get();
    }
}
