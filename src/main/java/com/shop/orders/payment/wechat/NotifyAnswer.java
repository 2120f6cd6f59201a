package com.shop.orders.payment.wechat;

/**
 * What the notify endpoint answers WeChat: 204 when the notify is handled (WeChat stops sending it), or a status
 * with a short reason; WeChat sends any notify not answered 2xx again later.
 */
public record NotifyAnswer(int status, String message) {

    static final NotifyAnswer HANDLED = new NotifyAnswer(204, null);

    static NotifyAnswer refused(int status, String message) {
        return new NotifyAnswer(status, message);
    }

    public boolean handled() {
        return status == HANDLED.status;
    }
}
