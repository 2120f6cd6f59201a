package com.shop.orders.sandbox.wechat;

/**
 * What a notify is about (a paid trade, a refund): where it goes, and the record of its attempts, which the page and
 * tests read.
 */
abstract class WechatNotified {

    private int notifyAttempts;
    private boolean notifyAcknowledged;

    /** Where WeChat posts the notify; null when the merchant gave none (a refund may have none). */
    abstract String notifyUrl();

    /** For logs: "trade T1", "refund R1". */
    abstract String describe();

    synchronized void recordNotifyAttempt() {
        notifyAttempts++;
    }

    synchronized void acknowledgeNotify() {
        notifyAcknowledged = true;
    }

    synchronized int notifyAttempts() {
        return notifyAttempts;
    }

    synchronized boolean notifyAcknowledged() {
        return notifyAcknowledged;
    }
}
