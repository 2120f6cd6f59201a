package com.shop.orders.payment;

/** A trade's state in the payment core's terms, whatever the wallet calls it. */
public enum TradeState {
    /** The wallet has no such trade (a QR code nobody scanned yet, or never offered). */
    NOT_FOUND,
    /** Scanned, not paid: still payable. */
    WAITING,
    /** Closed at the wallet: it can take no money. */
    CLOSED,
    /** The wallet has the money. */
    PAID
}
