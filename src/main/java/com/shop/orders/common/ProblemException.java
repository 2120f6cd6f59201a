package com.shop.orders.common;

import java.util.Map;

/**
 * A failure the client can act on. Rendered as RFC 9457 {@code application/problem+json} with
 * its status, a short title, a human-readable detail and optional extension members.
 */
public class ProblemException extends RuntimeException {

    private final int status;
    private final String title;
    private final Map<String, Object> extensions;

    public ProblemException(int status, String title, String detail) {
        this(status, title, detail, Map.of(), null);
    }

    public ProblemException(int status, String title, String detail, Map<String, Object> extensions) {
        this(status, title, detail, extensions, null);
    }

    public ProblemException(int status, String title, String detail, Map<String, Object> extensions, Throwable cause) {
        super(detail, cause);
        this.status = status;
        this.title = title;
        this.extensions = Map.copyOf(extensions);
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    public Map<String, Object> extensions() {
        return extensions;
    }
}
