package com.shop.orders.sandbox.alipay;

/** A business refusal of a gateway method: answered as code 40004 "Business Failed" with these sub fields. */
final class TradeRejected extends RuntimeException {

    final String subCode;
    final String subMsg;

    TradeRejected(String subCode, String subMsg) {
        super(subCode + ": " + subMsg, null, false, false);
        this.subCode = subCode;
        this.subMsg = subMsg;
    }

    static TradeRejected notExist() {
        return new TradeRejected("ACQ.TRADE_NOT_EXIST", "交易不存在");
    }

    static TradeRejected invalidParameter(String detail) {
        return new TradeRejected("ACQ.INVALID_PARAMETER", "参数无效: " + detail);
    }

    static TradeRejected statusError() {
        return new TradeRejected("ACQ.TRADE_STATUS_ERROR", "交易状态不合法");
    }

    static TradeRejected hasClosed() {
        return new TradeRejected("ACQ.TRADE_HAS_CLOSE", "交易已经关闭");
    }

    static TradeRejected hasSucceeded() {
        return new TradeRejected("ACQ.TRADE_HAS_SUCCESS", "交易已被支付");
    }
}
