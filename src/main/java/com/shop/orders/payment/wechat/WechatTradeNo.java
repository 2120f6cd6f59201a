package com.shop.orders.payment.wechat;

/**
 * WeChat's out_trade_no of an order's trade: the order number (24 digits) and "W", 25 characters within WeChat's
 * 6-32 of {@code [0-9A-Za-z_-|*]}. A number of its own, so that the order's trades on Alipay and WeChat never share
 * one (bills, refunds and notifies name the trade, not the order).
 */
final class WechatTradeNo {

    private static final String SUFFIX = "W";

    private WechatTradeNo() {
    }

    static String of(String orderNo) {
        return orderNo + SUFFIX;
    }

    /** The order a trade of this channel belongs to (its timeline, its trace); any other number as it is. */
    static String orderNoOf(String outTradeNo) {
        return outTradeNo != null && outTradeNo.endsWith(SUFFIX)
                ? outTradeNo.substring(0, outTradeNo.length() - SUFFIX.length())
                : outTradeNo;
    }
}
