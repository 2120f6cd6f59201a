package com.shop.orders.sandbox.wechat;

/** The buyer's wallet refuses to scan or pay this code, and says why. */
public class WechatBuyerRefused extends RuntimeException {

    WechatBuyerRefused(String reason) {
        super(reason, null, false, false);
    }
}
