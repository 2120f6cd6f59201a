package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * A RestAssured filter that holds every answer of the service's API to the service's own OpenAPI document
 * (OpenApiAnswers): an answer that breaks it fails the test, saying which request, status and field, and what the
 * document says. Installed for every @QuarkusTest by OpenApiCheckedTests, so that the flows the suite runs are
 * also a contract test, as an integrator's proxy in front of the service would be.
 *
 * <p>Only /api/* is the documented API. Everything else the tests call is left alone on purpose: /q/* (the
 * document itself, health, metrics), the wallet sandboxes (/sandbox/*) and the dev-only endpoints (/dev/*), which
 * production builds do not have. Bodies that are not JSON (QR images, plain-text acknowledgements, the live
 * status stream) are held to their documented status and media type only.
 *
 * <p>Every violation is also appended to target/api-contract-violations.txt, a list over the whole run. With
 * {@code -Dapi-contract=report} violations are only listed there and fail nothing: for surveying a change's
 * effect on the whole suite in one run.
 */
public final class OpenApiCheckedAnswers implements Filter {

    private static final Path REPORT = Path.of("target", "api-contract-violations.txt");

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification responseSpec,
            FilterContext context) {
        // The service's origin before the request goes on: ThroughContractProxy, after this filter, may send it
        // through a proxy, and the document is read from the service itself.
        URI uri = URI.create(request.getURI());
        Response response = context.next(request, responseSpec);
        if (uri.getPath() == null || !uri.getPath().startsWith("/api/")) {
            return response;
        }
        List<String> violations = documentAt(uri).violations(request.getMethod(), uri.getPath(),
                response.getStatusCode(), response.getContentType(), response.asString());
        if (!violations.isEmpty()) {
            append(REPORT, violations);
            if (!"report".equals(System.getProperty("api-contract"))) {
                throw new AssertionError("The answer breaks the service's OpenAPI document:\n  "
                        + String.join("\n  ", violations) + "\nbody: " + response.asString());
            }
        }
        return response;
    }

    /** The document of the service a request went to (its scheme, host and port). */
    static OpenApiAnswers documentAt(URI request) {
        return OpenApiAnswers.servedAt(request.getScheme() + "://" + request.getHost() + ":" + request.getPort());
    }

    /** Appends lines to a report of the run; tests of several threads append to the same one. */
    static synchronized void append(Path report, List<String> lines) {
        try {
            Files.createDirectories(report.getParent());
            Files.writeString(report, String.join("\n", lines) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
