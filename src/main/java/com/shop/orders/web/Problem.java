package com.shop.orders.web;

import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** RFC 9457 problem details body. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = ApiContract.PROBLEM, additionalProperties = Schema.True.class,
        description = "RFC 9457 problem details. Extension members at top level where useful: `violations` "
                + "(400: `[{field, message}]`), `skuId` or `skuIds`, `orderStatus`, `providerCode`.")
public record Problem(
        @Schema(description = "Always `about:blank`: the status and title say what went wrong", example = "about:blank")
        String type,
        @Schema(description = "Short, stable summary of the problem", example = "Insufficient stock")
        String title,
        @Schema(description = "The HTTP status code", example = "409")
        int status,
        @Schema(description = "What went wrong with this request", example = "SKU 3 does not have enough stock for this order")
        String detail,
        @Schema(description = "The request path", example = "/api/orders")
        String instance,
        @JsonIgnore @Schema(hidden = true)
        Map<String, Object> extensions) {

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
