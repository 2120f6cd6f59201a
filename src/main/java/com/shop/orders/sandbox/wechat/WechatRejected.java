package com.shop.orders.sandbox.wechat;

/** WeChat refuses the call for a business rule, with its status, code and message (an unsigned error answer). */
final class WechatRejected extends RuntimeException {

    private final int status;
    private final String code;

    WechatRejected(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    static WechatRejected invalidRequest(String message) {
        return new WechatRejected(400, "INVALID_REQUEST", message);
    }

    WechatAnswer answer() {
        return WechatAnswer.error(status, code, getMessage());
    }
}
