package com.shop.orders.web;

import java.util.List;
import java.util.Map;

/** The body of a 400 for invalid fields: {@code violations: [{field, message}]}, whoever found them. */
public final class Violations {

    static final String TITLE = "Invalid request";
    static final String DETAIL = "The request has invalid fields";

    public record Violation(String field, String message) {
    }

    private Violations() {
    }

    static Map<String, Object> extension(List<Violation> violations) {
        return Map.of("violations", violations.stream()
                .map(v -> Map.of("field", v.field(), "message", v.message()))
                .toList());
    }

    static Problem problem(List<Violation> violations, String instance) {
        return Problem.of(400, TITLE, DETAIL, instance).with(extension(violations));
    }
}
