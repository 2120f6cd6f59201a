package com.shop.orders.payment;

/**
 * What a wallet answered to a refund: done (also when this refund number had been refunded before: the wallet moves
 * the money once per number), refused for good, or stuck (WeChat's ABNORMAL: taken, but it could not be paid back to
 * the buyer's account until a person acts in the merchant console), with the wallet's codes and reason. An answer that
 * says none of these (time-out, 5xx, try again, still processing) is not a RefundAnswer: the call fails, and the
 * refund stays open until the refund query or a notify tells.
 */
public record RefundAnswer(Outcome outcome, String code, String subCode, String subMsg) {

    /** How a refund ended, or that it waits for a person. */
    public enum Outcome {
        DONE,
        REFUSED,
        STUCK
    }

    public RefundAnswer(boolean done, String code, String subCode, String subMsg) {
        this(done ? Outcome.DONE : Outcome.REFUSED, code, subCode, subMsg);
    }

    public boolean done() {
        return outcome == Outcome.DONE;
    }

    /** The wallet's reason in a few words, for the record of a refused refund. */
    public String reason() {
        return subMsg == null || subMsg.isBlank() ? "refused (" + code + ")" : subMsg;
    }
}
