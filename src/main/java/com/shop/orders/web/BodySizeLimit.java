package com.shop.orders.web;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.event.Observes;

import io.vertx.ext.web.Router;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Answers an oversized request with problem+json before its body is read. Quarkus enforces the
 * same limit while reading (for bodies without a Content-Length), but with an empty 413.
 */
@ApplicationScoped
public class BodySizeLimit {

    private final long maxBodySize;
    private final String body;

    public BodySizeLimit(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize,
            ObjectMapper json) throws JsonProcessingException {
        this.maxBodySize = maxBodySize.asLongValue();
        this.body = json.writeValueAsString(Map.of("type", "about:blank", "title", "Payload Too Large", "status", 413,
                "detail", "The request body is larger than " + this.maxBodySize + " bytes"));
    }

    /** quarkus.http.limits.max-body-size, in bytes. */
    public long maxBodySize() {
        return maxBodySize;
    }

    void install(@Observes Router router) {
        router.route().order(-100).handler(this::rejectOversized);
    }

    void rejectOversized(RoutingContext context) {
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && isTooLarge(length)) {
            context.response().setStatusCode(413)
                    .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(body);
            return;
        }
        context.next();
    }

    private boolean isTooLarge(String length) {
        try {
            return Long.parseLong(length.trim()) > maxBodySize;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
