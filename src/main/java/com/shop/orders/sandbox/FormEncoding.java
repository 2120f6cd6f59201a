package com.shop.orders.sandbox;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** application/x-www-form-urlencoded, decoded and encoded by hand so each value is decoded exactly once. */
final class FormEncoding {

    private FormEncoding() {
    }

    /** Adds the pairs of a raw query string or form body to {@code into}; an earlier value of a key wins. */
    static void decodeInto(String raw, Charset charset, Map<String, String> into) {
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
            into.putIfAbsent(key, value);
        }
    }

    static Map<String, String> decode(String raw, Charset charset) {
        Map<String, String> params = new LinkedHashMap<>();
        decodeInto(raw, charset, params);
        return params;
    }

    static String encode(Map<String, String> params, Charset charset) {
        return params.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), charset) + "=" + URLEncoder.encode(e.getValue(), charset))
                .collect(Collectors.joining("&"));
    }

    /**
     * The value of a plain ASCII parameter read before decoding, needed because the charset that
     * decodes the request is itself one of its parameters.
     */
    static String rawValue(String raw, String key) {
        if (raw == null) {
            return null;
        }
        for (String pair : raw.split("&")) {
            if (pair.startsWith(key + "=")) {
                return pair.substring(key.length() + 1);
            }
        }
        return null;
    }
}
