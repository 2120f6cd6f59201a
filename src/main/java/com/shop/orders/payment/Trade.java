package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

/** What Alipay knows of the trade behind an order. */
public record Trade(String orderNo, TradeStatus status, String tradeNo, BigDecimal totalAmount, Instant paidAt) {

    static Trade notExist(String orderNo) {
        return new Trade(orderNo, TradeStatus.NOT_EXIST, null, null, null);
    }

    PaidTrade paid() {
        return new PaidTrade(orderNo, tradeNo, totalAmount, paidAt);
    }
}
