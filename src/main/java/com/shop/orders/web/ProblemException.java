package com.shop.orders.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A failure the client can act on. Rendered as RFC 9457 {@code application/problem+json} with
 * its status, a short title, a human-readable detail and optional extension members.
 */
public class ProblemException extends RuntimeException {

    private final int status;
    private final String title;
    private final Map<String, Object> extensions;
    private final Map<String, String> headers = new LinkedHashMap<>();

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

    /** 400 naming the field that is wrong, in the same shape as bean-validation failures. */
    public static ProblemException invalid(String field, String message) {
        return new ProblemException(400, Violations.TITLE, Violations.DETAIL,
                Violations.extension(List.of(new Violations.Violation(field, message))));
    }

    /** A header the answer carries besides the problem (e.g. Retry-After), set before the exception is thrown. */
    public ProblemException withHeader(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** The problem as answered for a request to this path. */
    public Problem problem(String instance) {
        return Problem.of(status, title, getMessage(), instance).with(extensions);
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

    public Map<String, String> headers() {
        return Map.copyOf(headers);
    }
}
