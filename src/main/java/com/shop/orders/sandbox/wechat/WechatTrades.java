package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.profile.IfBuildProfile;

/** The sandbox's trades by out_trade_no and by code, and how often each API was called for each. */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatTrades {

    private final Map<String, WechatTrade> byOutTradeNo = new ConcurrentHashMap<>();
    private final Map<String, WechatTrade> byCodeUrl = new ConcurrentHashMap<>();
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

    void called(String method, String outTradeNo) {
        calls.computeIfAbsent(method + " " + outTradeNo, key -> new AtomicInteger()).incrementAndGet();
    }

    /** How often {@code method} (prepay, query, close) was called for the trade. */
    public int calls(String method, String outTradeNo) {
        AtomicInteger count = calls.get(method + " " + outTradeNo);
        return count == null ? 0 : count.get();
    }
}
