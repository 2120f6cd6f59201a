package com.shop.orders.sandbox.wechat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the sandbox answers one of WeChat Pay's APIs: a status and a JSON body (none for 204). Only 2xx answers are
 * signed; errors go unsigned as {code, message}, as WeChat's do.
 */
record WechatAnswer(int status, String body) {

    private static final ObjectMapper JSON = new ObjectMapper();

    boolean signed() {
        return status >= 200 && status < 300;
    }

    static WechatAnswer ok(Object value) {
        return new WechatAnswer(200, write(value));
    }

    static WechatAnswer noContent() {
        return new WechatAnswer(204, null);
    }

    static WechatAnswer error(int status, String code, String message) {
        return new WechatAnswer(status, "{\"code\":\"" + code + "\",\"message\":\"" + message.replace("\"", "'")
                + "\"}");
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
