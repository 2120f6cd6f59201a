package com.shop.orders.payment;

import java.math.BigDecimal;

/**
 * A verified refund notify as the core takes it: the trade, the refund's number, its amount and the trade's total (as
 * the wallet counts them), and how the refund ended (or that it is stuck).
 */
public record RefundNotice(String outTradeNo, String refundNo, BigDecimal amount, BigDecimal tradeTotal,
        RefundFinding finding) {
}
