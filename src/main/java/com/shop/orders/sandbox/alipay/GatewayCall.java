package com.shop.orders.sandbox.alipay;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;

/**
 * One verified gateway request: the system parameters and the decoded biz_content.
 *
 * @param params every query and form parameter, decoded
 * @param biz    biz_content as JSON (an empty object when absent)
 */
record GatewayCall(String method, Map<String, String> params, JsonNode biz, Instant now) {

    /** A biz_content field as text, null when absent or empty (numbers are accepted as their text). */
    String biz(String field) {
        JsonNode value = biz.get(field);
        if (value == null || value.isNull() || value.isContainerNode()) {
            return null;
        }
        String text = value.asText();
        return text.isEmpty() ? null : text;
    }

    String required(String field, int maxLength) {
        String value = biz(field);
        if (value == null) {
            throw TradeRejected.invalidParameter(field + " is required");
        }
        if (value.length() > maxLength) {
            throw TradeRejected.invalidParameter(field + " is longer than " + maxLength);
        }
        return value;
    }

    String notifyUrl() {
        return params.get("notify_url");
    }
}
