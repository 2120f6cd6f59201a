package com.shop.orders.payment;

/** Alipay's trade states, plus NOT_EXIST: precreated but never scanned, so Alipay has no trade yet. */
public enum TradeStatus {
    NOT_EXIST,
    WAIT_BUYER_PAY,
    TRADE_CLOSED,
    TRADE_SUCCESS,
    TRADE_FINISHED;

    public boolean isPaid() {
        return this == TRADE_SUCCESS || this == TRADE_FINISHED;
    }

    static TradeStatus parse(String value) {
        try {
            return value == null ? NOT_EXIST : valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("Unknown Alipay trade status " + value, e);
        }
    }
}
