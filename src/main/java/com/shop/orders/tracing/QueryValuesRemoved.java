package com.shop.orders.tracing;

import jakarta.inject.Singleton;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.quarkus.arc.Unremovable;

/**
 * Keeps the names of a request's query parameters and drops their values before a span leaves the service: a query
 * can carry a capability (the signed QR image link's {@code sig}), which must not reach the tracing backend.
 * Quarkus adds every SpanProcessor bean to the tracer provider.
 */
@Singleton
@Unremovable
public class QueryValuesRemoved implements SpanProcessor {

    static final AttributeKey<String> URL_QUERY = AttributeKey.stringKey("url.query");

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
        String query = span.getAttribute(URL_QUERY);
        if (query != null) {
            span.setAttribute(URL_QUERY, namesOnly(query));
        }
    }

    @Override
    public boolean isStartRequired() {
        return true;
    }

    @Override
    public void onEnd(ReadableSpan span) {
    }

    @Override
    public boolean isEndRequired() {
        return false;
    }

    /** {@code expires=1796408638&sig=4rbs...} becomes {@code expires=?&sig=?}. */
    static String namesOnly(String query) {
        StringBuilder names = new StringBuilder();
        for (String parameter : query.split("&")) {
            if (!names.isEmpty()) {
                names.append('&');
            }
            int equals = parameter.indexOf('=');
            names.append(equals < 0 ? parameter : parameter.substring(0, equals)).append("=?");
        }
        return names.toString();
    }
}
