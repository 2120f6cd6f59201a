package com.shop.orders.payment.alipay;

/** Alipay's answer to "where is the trade bill of that day": a short-lived download link, or not published yet. */
public record TradeBillLink(boolean published, String url) {

    static TradeBillLink at(String url) {
        return new TradeBillLink(true, url);
    }

    static TradeBillLink notPublished() {
        return new TradeBillLink(false, null);
    }
}
