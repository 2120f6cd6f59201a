package com.shop.orders.sandbox.alipay;

import java.util.LinkedHashMap;
import java.util.Map;

/** The code fields that open every Alipay answer node. */
final class AlipayAnswers {

    private AlipayAnswers() {
    }

    /** code 10000 "Success" followed by the fields, given as name, value pairs. */
    static Map<String, Object> success(Object... namesAndValues) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("code", "10000");
        node.put("msg", "Success");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                node.put((String) namesAndValues[i], namesAndValues[i + 1]);
            }
        }
        return node;
    }

    static Map<String, Object> error(String code, String msg, String subCode, String subMsg) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("code", code);
        node.put("msg", msg);
        if (subCode != null) {
            node.put("sub_code", subCode);
        }
        if (subMsg != null) {
            node.put("sub_msg", subMsg);
        }
        return node;
    }

    static Map<String, Object> businessFailed(TradeRejected rejection) {
        return error("40004", "Business Failed", rejection.subCode, rejection.subMsg);
    }

    static Map<String, Object> missingArgument(String subCode, String subMsg) {
        return error("40001", "Missing Required Arguments", subCode, subMsg);
    }

    static Map<String, Object> invalidArgument(String subCode, String subMsg) {
        return error("40002", "Invalid Arguments", subCode, subMsg);
    }
}
