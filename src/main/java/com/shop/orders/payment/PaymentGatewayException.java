package com.shop.orders.payment;

import java.util.Map;

import com.shop.orders.web.ProblemException;

/**
 * A wallet refused (502) or could not be reached in time (503). Nothing was changed on our side. The detail names
 * the wallet, the call and the wallet's code only: the wallet's own message text is logged, not shown to members.
 */
public class PaymentGatewayException extends ProblemException {

    private PaymentGatewayException(int status, String title, String detail, Map<String, Object> extensions,
            Throwable cause) {
        super(status, title, detail, extensions, cause);
    }

    /** The wallet refused the call; {@code codes} are its own, e.g. " (40004 / ACQ.TRADE_NOT_EXIST)". */
    public static PaymentGatewayException refused(String wallet, String method, String codes,
            Map<String, Object> extensions) {
        return new PaymentGatewayException(502, "Payment provider refused", wallet + " refused " + method + codes,
                extensions, null);
    }

    /** The wallet answered, asking to be called again later: an outage. */
    public static PaymentGatewayException tryAgain(String wallet, String method, String codes,
            Map<String, Object> extensions) {
        return new PaymentGatewayException(503, "Payment provider unavailable",
                wallet + " asked to try " + method + " again later" + codes, extensions, null);
    }

    /** The wallet answered under a key or certificate that does not check out: not believed. */
    public static PaymentGatewayException untrusted(String wallet, String method, Throwable cause) {
        return new PaymentGatewayException(502, "Payment provider answer not trusted",
                wallet + "'s answer to " + method + " came under a certificate that is not trusted", Map.of(), cause);
    }

    public static PaymentGatewayException unavailable(String wallet, String method, Throwable cause) {
        return new PaymentGatewayException(503, "Payment provider unavailable",
                wallet + " could not be reached for " + method + "; try again shortly", Map.of(), cause);
    }
}
