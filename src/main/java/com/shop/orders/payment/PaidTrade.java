package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

/** A wallet's word (a verified notify or a query) that the trade of an order is paid. */
public record PaidTrade(String outTradeNo, String tradeNo, BigDecimal amount, Instant paidAt) {
}
