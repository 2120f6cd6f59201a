package com.shop.orders.payment;

/**
 * What {@code alipay.trade.refund} answered: the refund is done (also when this request number had been refunded
 * before: Alipay moves the money once per number), or refused for good, with Alipay's reason. An answer that says
 * neither (time-out, 5xx, {@code ACQ.SYSTEM_ERROR}) is not a RefundAnswer: the call fails, and the refund stays
 * open until the refund query tells.
 */
public record RefundAnswer(boolean done, String code, String subCode, String subMsg) {

    static RefundAnswer of(String code, String subCode, String subMsg) {
        if (AlipayReplies.isTryAgain(code, subCode)) {
            return null;
        }
        return new RefundAnswer(AlipayReplies.isSuccess(code), code, subCode, subMsg);
    }

    /** Alipay's reason in a few words, for the record of a refused refund. */
    public String reason() {
        return subMsg == null || subMsg.isBlank() ? "refused (" + code + ")" : subMsg;
    }
}
