package com.shop.orders.payment;

/** Fired (CDI) after the commit that paid an order with the trade {@code outTradeNo}: its other trades must close. */
public record TradeAccepted(long orderId, String orderNo, String outTradeNo) {
}
