package com.shop.orders.sandbox.alipay;

/** Alipay's trade states, plus the state before the buyer scans, when for Alipay no trade exists yet. */
public enum SandboxTradeStatus {
    /** Precreated QR code not scanned yet: query, close and refund answer ACQ.TRADE_NOT_EXIST. */
    AWAITING_SCAN,
    WAIT_BUYER_PAY,
    TRADE_SUCCESS,
    TRADE_CLOSED
}
