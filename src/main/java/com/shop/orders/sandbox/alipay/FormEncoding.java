package com.shop.orders.sandbox.alipay;

import java.net.URLEncoder;
import java.nio.charset.Charset;
import java.util.Map;
import java.util.stream.Collectors;

import com.shop.orders.payment.alipay.FormBody;

/** application/x-www-form-urlencoded as Alipay writes it; decoding is the application's own ({@link FormBody}). */
final class FormEncoding {

    private FormEncoding() {
    }

    /** Adds the pairs of a raw query string or form body to {@code into}; an earlier value of a key wins. */
    static void decodeInto(String raw, Charset charset, Map<String, String> into) {
        FormBody.decodeInto(raw, charset, into);
    }

    static Map<String, String> decode(String raw, Charset charset) {
        return FormBody.decode(raw, charset);
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
