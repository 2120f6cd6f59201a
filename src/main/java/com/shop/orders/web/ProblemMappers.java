package com.shop.orders.web;

import java.util.List;
import java.util.UUID;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import com.shop.orders.resilience.Bulkhead;
import com.shop.orders.sql.DatabaseUnavailable;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

/** Turns every failure that reaches the REST layer into problem+json; never leaks a stack trace. */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e, UriInfo uri) {
        Response.ResponseBuilder response = Response.fromResponse(e.problem(uri.getPath()).toResponse());
        e.headers().forEach(response::header);
        return response.build();
    }

    @ServerExceptionMapper
    public Response invalid(ConstraintViolationException e, UriInfo uri) {
        List<Violations.Violation> violations = e.getConstraintViolations().stream()
                .map(ProblemMappers::violation)
                .toList();
        return Violations.problem(violations, uri.getPath()).toResponse();
    }

    /** Well-formed JSON with a value of the wrong type: names the field, as bean validation does. */
    // Before quarkus-rest-jackson's own mappers, which answer plain JSON.
    @ServerExceptionMapper(priority = 1)
    public Response mismatchedJson(MismatchedInputException e, UriInfo uri) {
        String field = fieldPath(e);
        if (field.isEmpty()) {
            return malformedJson(e, uri);
        }
        String expected = e.getTargetType() == null ? "another type" : typeName(e.getTargetType());
        return Violations.problem(List.of(new Violations.Violation(field, "must be " + expected)), uri.getPath())
                .toResponse();
    }

    @ServerExceptionMapper(priority = 1)
    public Response numberOutOfRange(InputCoercionException e, UriInfo uri) {
        return Problem.of(400, "Malformed JSON", "A number in the request body is out of range", uri.getPath())
                .toResponse();
    }

    @ServerExceptionMapper(priority = 1)
    public Response malformedJson(JsonProcessingException e, UriInfo uri) {
        return Problem.of(400, "Malformed JSON", "The request body is not valid JSON for this operation", uri.getPath())
                .toResponse();
    }

    @ServerExceptionMapper({ UnauthorizedException.class, AuthenticationFailedException.class })
    public Response unauthorized(RuntimeException e, UriInfo uri) {
        return Response.fromResponse(
                Problem.of(401, "Unauthorized", "A valid bearer token is required", uri.getPath()).toResponse())
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e, UriInfo uri) {
        return Problem.of(403, "Forbidden", "This operation is not allowed for this token", uri.getPath()).toResponse();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e, uri);
        }
        String title = Response.Status.fromStatusCode(status) != null
                ? Response.Status.fromStatusCode(status).getReasonPhrase()
                : "Request failed";
        String detail = status == 413 ? "The request body is too large" : title;
        return Problem.of(status, title, detail, uri.getPath()).toResponse();
    }

    @ServerExceptionMapper
    public Response busy(Bulkhead.BulkheadFullException e, UriInfo uri) {
        return Response.fromResponse(Problem.of(503, "Busy", "Too many requests of this kind are in progress; "
                + "try again shortly", uri.getPath()).toResponse())
                .header(HttpHeaders.RETRY_AFTER, "1")
                .build();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e, UriInfo uri) {
        if (DatabaseUnavailable.isCause(e)) {
            LOG.warnf("Request %s failed: the database is unavailable (%s)", uri.getPath(), e.toString());
            return Response.fromResponse(Problem.of(503, "Service unavailable",
                    "The database cannot be reached right now; try again shortly", uri.getPath()).toResponse())
                    .header(HttpHeaders.RETRY_AFTER, "2")
                    .build();
        }
        String errorId = UUID.randomUUID().toString();
        LOG.errorf(e, "Request %s failed, error id %s", uri.getPath(), errorId);
        return Problem.of(500, "Internal error", "The request failed; error id " + errorId, uri.getPath()).toResponse();
    }

    /** "items[0].quantity" from Jackson's reference path. */
    private static String fieldPath(MismatchedInputException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String typeName(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (java.util.Collection.class.isAssignableFrom(type)) {
            return "an array";
        }
        return "an object";
    }

    private static Violations.Violation violation(ConstraintViolation<?> v) {
        String path = v.getPropertyPath().toString();
        // Drop the method and parameter names ("place.request.items[0].quantity" -> "items[0].quantity").
        String[] parts = path.split("\\.", 3);
        String field = parts.length == 3 ? parts[2] : path;
        return new Violations.Violation(field, v.getMessage());
    }
}
