package com.shop.orders.payment.alipay;

import com.shop.orders.payment.TradeState;

/** Alipay's trade states, plus NOT_EXIST: precreated but never scanned, so Alipay has no trade yet. */
public enum TradeStatus {
    NOT_EXIST,
    WAIT_BUYER_PAY,
    TRADE_CLOSED,
    TRADE_SUCCESS,
    TRADE_FINISHED;

    /** The state in the payment core's terms. */
    public TradeState state() {
        return switch (this) {
            case NOT_EXIST -> TradeState.NOT_FOUND;
            case WAIT_BUYER_PAY -> TradeState.WAITING;
            case TRADE_CLOSED -> TradeState.CLOSED;
            case TRADE_SUCCESS, TRADE_FINISHED -> TradeState.PAID;
        };
    }

    /** The one rule of what counts as paid, for notifies and queries alike. */
    public boolean isPaid() {
        return this == TRADE_SUCCESS || this == TRADE_FINISHED;
    }

    /** @throws IllegalArgumentException for a value Alipay does not send */
    public static TradeStatus parse(String value) {
        if (value == null) {
            return NOT_EXIST;
        }
        try {
            return valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Unknown Alipay trade status " + value, e);
        }
    }
}
