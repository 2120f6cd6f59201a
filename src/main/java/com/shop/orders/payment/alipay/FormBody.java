package com.shop.orders.payment.alipay;

import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * application/x-www-form-urlencoded, decoded by hand: each value exactly once, the first value of a
 * repeated key wins, and a body that is not valid form encoding is refused as a whole
 * ({@link IllegalArgumentException}) instead of failing deep inside a framework.
 */
public final class FormBody {

    private FormBody() {
    }

    public static Map<String, String> decode(String raw, Charset charset) {
        Map<String, String> params = new LinkedHashMap<>();
        decodeInto(raw, charset, params);
        return params;
    }

    /** Adds the pairs of a raw query string or form body to {@code into}; an earlier value of a key wins. */
    public static void decodeInto(String raw, Charset charset, Map<String, String> into) {
        if (raw == null || raw.isEmpty()) {
            return;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), charset);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), charset);
            if (key.isEmpty()) {
                throw new IllegalArgumentException("a form field without a name");
            }
            into.putIfAbsent(key, value);
        }
    }
}
