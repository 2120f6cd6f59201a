package com.shop.orders.payment;

/** What closing a trade at its wallet came to. */
public record TradeClosing(Result result, Trade trade) {

    public enum Result {
        /** The trade, or the QR code nobody scanned, can no longer be paid. */
        CLOSED,
        /** The buyer paid meanwhile and the wallet gave the money back while voiding the trade. */
        REVERSED,
        /** The wallet has the money ({@link #trade()} says what it knows). */
        PAID
    }

    public static TradeClosing closed() {
        return new TradeClosing(Result.CLOSED, null);
    }

    public static TradeClosing reversed() {
        return new TradeClosing(Result.REVERSED, null);
    }

    public static TradeClosing paid(Trade trade) {
        return new TradeClosing(Result.PAID, trade);
    }
}
