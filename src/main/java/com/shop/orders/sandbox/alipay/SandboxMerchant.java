package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;

/**
 * The merchant at Alipay's own console: refunds made there reach the trade and the bill, but the order
 * service never asked for them and hears of them only by querying or reconciling.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class SandboxMerchant {

    private final SandboxTrades trades;

    public SandboxMerchant(SandboxTrades trades) {
        this.trades = trades;
    }

    /**
     * Refunds by the rules of alipay.trade.refund (a repeated request number refunds nothing again). Empty for
     * a trade Alipay does not know; throws {@link TradeRejected} with Alipay's reason for a refused refund.
     */
    public Optional<TradeSnapshot> refund(String outTradeNo, BigDecimal amount, String outRequestNo) {
        return trades.byOutTradeNo(outTradeNo).filter(SandboxTrade::existsAtAlipay).map(trade -> {
            Instant now = Instant.now();
            trade.refund(outRequestNo, amount, now);
            return trade.snapshot(now);
        });
    }
}
