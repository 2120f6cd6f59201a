package com.shop.orders.sandbox.alipay;

import java.time.Duration;
import java.util.Objects;

/**
 * What the gateway does instead of answering a method normally. An Alipay error or an HTTP status is
 * answered without touching the trade (the call never got through), or, {@link #withAfterEffect after the
 * effect}, once the method has run (it happened, but the merchant hears only the fault); {@link #noAnswerFor}
 * lets the call take effect and then keeps the answer back, the "did it happen?" case a client timeout leaves.
 */
public record MethodFault(Kind kind, String code, String msg, String subCode, String subMsg, int httpStatus,
                          Duration noAnswerFor, boolean afterEffect) {

    public enum Kind { ALIPAY_ERROR, HTTP_STATUS, NO_ANSWER }

    public MethodFault {
        Objects.requireNonNull(kind, "kind");
        if (afterEffect && kind == Kind.NO_ANSWER) {
            throw new IllegalArgumentException("a held-back answer always comes after the effect");
        }
    }

    /** A signed Alipay answer with these code fields, e.g. ("40004", "Business Failed", "ACQ.SYSTEM_ERROR", "系统错误"). */
    public static MethodFault alipayError(String code, String msg, String subCode, String subMsg) {
        return new MethodFault(Kind.ALIPAY_ERROR, code, msg, subCode, subMsg, 0, null, false);
    }

    /** Alipay's "try again later": code 20000 "Service Currently Unavailable", sub_code ACQ.SYSTEM_ERROR. */
    public static MethodFault systemError() {
        return alipayError("20000", "Service Currently Unavailable", "ACQ.SYSTEM_ERROR", "系统繁忙");
    }

    /** A bare HTTP error such as 500 or 502, as a broken proxy in front of Alipay would answer. */
    public static MethodFault httpStatus(int status) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("an HTTP error status is 4xx or 5xx: " + status);
        }
        return new MethodFault(Kind.HTTP_STATUS, null, null, null, null, status, null, false);
    }

    /** The call takes effect but its answer comes only after this long (longer than the client's read timeout). */
    public static MethodFault noAnswerFor(Duration delay) {
        return new MethodFault(Kind.NO_ANSWER, null, null, null, null, 0, Objects.requireNonNull(delay), false);
    }

    /** This Alipay error or HTTP status, answered after the method ran and changed the trade. */
    public MethodFault withAfterEffect() {
        return new MethodFault(kind, code, msg, subCode, subMsg, httpStatus, noAnswerFor, true);
    }

    /** Whether the method runs before the answer: a held-back answer, or a fault after the effect. */
    boolean letsTheCallThrough() {
        return kind == Kind.NO_ANSWER || afterEffect;
    }
}
