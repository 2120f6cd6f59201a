package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One row of the trade bill's details: a payment, or a refund of one.
 *
 * @param tradeNo    the wallet's number of the trade (Alipay's trade_no, WeChat's transaction_id)
 * @param outTradeNo this service's number of the trade at the wallet (payment.out_trade_no)
 * @param amount     a payment's order amount, a refund's amount (positive), in yuan to the fen
 * @param requestNo  a refund's number from this service (Alipay's out_request_no, empty when Alipay has none, as for
 *                   a cancel's refund; WeChat's out_refund_no)
 */
public record BillEntry(String tradeNo, String outTradeNo, Kind kind, BigDecimal amount, String requestNo,
        Instant finishedAt) {

    public enum Kind {
        PAYMENT,
        REFUND
    }
}
