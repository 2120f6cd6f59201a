package com.shop.orders.sandbox.wechat;

/** What a notify is about (a paid trade, a refund): where it goes, and the record of its attempts. */
interface WechatNotified {

    /** Where WeChat posts the notify; null when the merchant gave none (a refund may have none). */
    String notifyUrl();

    void recordNotifyAttempt();

    void acknowledgeNotify();

    /** For logs: "trade T1", "refund R1". */
    String describe();
}
