package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every trade the sandbox knows and how the gateway was called: the store behind the gateway and
 * buyer endpoints, and what tests inspect.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxTrades {

    private final ConcurrentMap<String, SandboxTrade> byOutTradeNo = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, AtomicLong> callsByMethodAndTrade = new ConcurrentHashMap<>();

    /** The trade precreated under this out_trade_no, as it is now (an expired one reads TRADE_CLOSED). */
    public Optional<TradeSnapshot> trade(String outTradeNo) {
        return Optional.ofNullable(byOutTradeNo.get(outTradeNo)).map(t -> t.snapshot(Instant.now()));
    }

    /** All trades, most recently expiring first. */
    public List<TradeSnapshot> trades() {
        Instant now = Instant.now();
        return byOutTradeNo.values().stream()
                .map(t -> t.snapshot(now))
                .sorted(Comparator.comparing(TradeSnapshot::expiresAt).reversed())
                .toList();
    }

    /** Gateway calls of this method (e.g. "alipay.trade.query") about this out_trade_no, faulted ones included. */
    public long calls(String method, String outTradeNo) {
        AtomicLong count = callsByMethodAndTrade.get(callKey(method, outTradeNo));
        return count == null ? 0 : count.get();
    }

    /** Notify POSTs sent for this trade, whatever the merchant answered. */
    public int notifiesSent(String outTradeNo) {
        SandboxTrade trade = byOutTradeNo.get(outTradeNo);
        return trade == null ? 0 : trade.notifyAttempts();
    }

    /** Forgets every trade and call count; notifies still pending for the old trades are not sent. */
    public void reset() {
        byOutTradeNo.values().forEach(SandboxTrade::discard);
        byOutTradeNo.clear();
        callsByMethodAndTrade.clear();
    }

    void countCall(String method, String outTradeNo) {
        callsByMethodAndTrade.computeIfAbsent(callKey(method, outTradeNo), k -> new AtomicLong()).incrementAndGet();
    }

    /**
     * A new QR code, or the same one again for a repeated precreate of a still payable trade. Atomic per
     * out_trade_no so concurrent repeats agree on one QR code.
     */
    SandboxTrade precreate(String outTradeNo, BigDecimal amount, String subject, Instant expiresAt,
                           String notifyUrl, Instant now) {
        return byOutTradeNo.compute(outTradeNo, (key, existing) -> {
            if (existing == null || existing.replaceableBy(now)) {
                if (existing != null) {
                    existing.discard();
                }
                return new SandboxTrade(outTradeNo, amount, subject, expiresAt, notifyUrl);
            }
            existing.precreateAgain(amount, notifyUrl, now);
            return existing;
        });
    }

    /** Every trade, for the bill. */
    List<SandboxTrade> all() {
        return List.copyOf(byOutTradeNo.values());
    }

    Optional<SandboxTrade> byOutTradeNo(String outTradeNo) {
        return Optional.ofNullable(byOutTradeNo.get(outTradeNo));
    }

    Optional<SandboxTrade> byTradeNo(String tradeNo) {
        return byOutTradeNo.values().stream().filter(t -> tradeNo.equals(t.tradeNo())).findFirst();
    }

    Optional<SandboxTrade> byQrCode(String qrCode) {
        return byOutTradeNo.values().stream().filter(t -> t.qrCode.equals(qrCode)).findFirst();
    }

    private static String callKey(String method, String outTradeNo) {
        return method + '\n' + outTradeNo;
    }
}
