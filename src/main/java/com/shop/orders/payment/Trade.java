package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * What a wallet knows of the trade behind an order: its state, the wallet's own word for it (for the records and
 * the logs), the wallet's trade number and the money.
 */
public record Trade(String outTradeNo, TradeState state, String walletStatus, String tradeNo, BigDecimal totalAmount,
        Instant paidAt) {

    public static Trade notFound(String outTradeNo) {
        return new Trade(outTradeNo, TradeState.NOT_FOUND, TradeState.NOT_FOUND.name(), null, null, null);
    }

    /** The one rule of what counts as paid, for every wallet. */
    public boolean isPaid() {
        return state == TradeState.PAID;
    }

    public PaidTrade paid() {
        return new PaidTrade(outTradeNo, tradeNo, totalAmount, paidAt);
    }
}
