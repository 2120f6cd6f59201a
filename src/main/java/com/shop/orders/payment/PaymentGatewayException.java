package com.shop.orders.payment;

import java.util.Map;

import com.shop.orders.web.ProblemException;

/**
 * Alipay refused (502) or could not be reached in time (503). Nothing was changed on our side. The
 * detail names the call and Alipay's code only: Alipay's own message text is logged, not shown to members.
 */
public class PaymentGatewayException extends ProblemException {

    private PaymentGatewayException(int status, String title, String detail, Map<String, Object> extensions,
            Throwable cause) {
        super(status, title, detail, extensions, cause);
    }

    /**
     * Alipay answered with an error: a refusal of the call (502), unless it asked to be called again later
     * ({@code ACQ.SYSTEM_ERROR}), which is an outage (503). The detail names the call and Alipay's codes only.
     */
    static PaymentGatewayException answered(String method, String code, String subCode) {
        String codes = " (" + code + (subCode == null ? "" : " / " + subCode) + ")";
        Map<String, Object> extensions = subCode == null ? Map.of() : Map.of("providerCode", subCode);
        return AlipayReplies.isTryAgain(code, subCode)
                ? new PaymentGatewayException(503, "Payment provider unavailable",
                        "Alipay asked to try " + method + " again later" + codes, extensions, null)
                : new PaymentGatewayException(502, "Payment provider refused", "Alipay refused " + method + codes,
                        extensions, null);
    }

    /** Alipay answered under a certificate that does not check out against the configured root: not believed. */
    static PaymentGatewayException untrusted(String method, Throwable cause) {
        return new PaymentGatewayException(502, "Payment provider answer not trusted",
                "Alipay's answer to " + method + " came under a certificate that is not trusted", Map.of(), cause);
    }

    static PaymentGatewayException unavailable(String method, Throwable cause) {
        return new PaymentGatewayException(503, "Payment provider unavailable",
                "Alipay could not be reached for " + method + "; try again shortly", Map.of(), cause);
    }
}
