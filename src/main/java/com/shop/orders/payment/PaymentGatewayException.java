package com.shop.orders.payment;

import java.util.Map;

import com.shop.orders.common.ProblemException;

/**
 * Alipay refused (502) or could not be reached in time (503). Nothing was changed on our side. The
 * detail names the call and Alipay's code only: Alipay's own message text is logged, not shown to members.
 */
public class PaymentGatewayException extends ProblemException {

    private PaymentGatewayException(int status, String title, String detail, Map<String, Object> extensions,
            Throwable cause) {
        super(status, title, detail, extensions, cause);
    }

    static PaymentGatewayException refused(String method, String code, String subCode) {
        return new PaymentGatewayException(502, "Payment provider refused",
                "Alipay refused " + method + " (" + code + (subCode == null ? "" : " / " + subCode) + ")",
                subCode == null ? Map.of() : Map.of("providerCode", subCode), null);
    }

    /** Alipay answered, asking to be called again later (ACQ.SYSTEM_ERROR): an outage, not a refusal. */
    static PaymentGatewayException busy(String method, String code, String subCode) {
        return new PaymentGatewayException(503, "Payment provider unavailable",
                "Alipay asked to try " + method + " again later (" + code + (subCode == null ? "" : " / " + subCode)
                        + ")", subCode == null ? Map.of() : Map.of("providerCode", subCode), null);
    }

    static PaymentGatewayException unavailable(String method, Throwable cause) {
        return new PaymentGatewayException(503, "Payment provider unavailable",
                "Alipay could not be reached for " + method + "; try again shortly", Map.of(), cause);
    }
}
