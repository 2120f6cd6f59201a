package com.shop.orders.payment;

/**
 * What a wallet answered to a refund: done (also when this refund number had been refunded before: the wallet moves
 * the money once per number), or refused for good, with the wallet's codes and reason. An answer that says neither
 * (time-out, 5xx, try again) is not a RefundAnswer: the call fails, and the refund stays open until the refund
 * query tells.
 */
public record RefundAnswer(boolean done, String code, String subCode, String subMsg) {

    /** The wallet's reason in a few words, for the record of a refused refund. */
    public String reason() {
        return subMsg == null || subMsg.isBlank() ? "refused (" + code + ")" : subMsg;
    }
}
