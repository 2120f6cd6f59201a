package com.shop.orders.sandbox.alipay;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One row of the trade bill's detail table: a payment, or a refund (received negative, its request number).
 * Amounts in yuan, as the bill writes them.
 */
record BillLine(String tradeNo, String outTradeNo, Type type, String subject, Instant createdAt, Instant finishedAt,
                BigDecimal orderAmount, BigDecimal received, String requestNo) {

    enum Type {
        PAYMENT("交易"),
        REFUND("退款");

        final String label;

        Type(String label) {
            this.label = label;
        }
    }

    BillLine withAmount(BigDecimal amount) {
        return new BillLine(tradeNo, outTradeNo, type, subject, createdAt, finishedAt, amount,
                type == Type.REFUND ? amount.negate() : amount, requestNo);
    }

    BillLine withType(Type newType) {
        return newType == type ? this : new BillLine(tradeNo, outTradeNo, newType, subject, createdAt, finishedAt,
                orderAmount, received.negate(), requestNo);
    }
}
