package com.shop.orders.common;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** RFC 9457 problem details body. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance,
        @JsonIgnore Map<String, Object> extensions) {

    public static final String MEDIA_TYPE = "application/problem+json";
    public static final MediaType PROBLEM_JSON = MediaType.valueOf(MEDIA_TYPE);

    public static Problem of(int status, String title, String detail, String instance) {
        return new Problem("about:blank", title, status, detail, instance, Map.of());
    }

    public Problem with(Map<String, Object> more) {
        Map<String, Object> merged = new LinkedHashMap<>(extensions);
        merged.putAll(more);
        return new Problem(type, title, status, detail, instance, merged);
    }

    @JsonAnyGetter
    public Map<String, Object> extensionMembers() {
        return extensions;
    }

    public Response toResponse() {
        return Response.status(status).type(PROBLEM_JSON).entity(this).build();
    }
}
