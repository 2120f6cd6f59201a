package com.shop.orders.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * With {@code -Dapi-contract.proxy=http://127.0.0.1:4010}, a RestAssured filter that sends the tests' /api/*
 * requests to the test instance through that contract proxy (Stoplight Prism in proxy mode, whose upstream is the
 * test instance: .ci/prism-contract.sh) and writes down what the proxy says of each answer. Prism holds request and
 * answer to the document it was given and names every violation in the answer's {@code sl-violations} header.
 *
 * <p>Nothing fails here; the script counts, from target/prism/: requests.tsv, a line per request (operation,
 * status); violations.tsv, a line per violation (operation, status, where, severity, what); operations.txt, the
 * served document's operations, to tell which the run left out (written once per test class loader).
 *
 * <p>Everything else goes direct: /q/*, the sandboxes, the dev endpoints, another instance's port, bodies Prism
 * cannot parse (below), and the live status streams, which EventStream opens without RestAssured (Prism reads an
 * answer whole before it passes it on, and a stream does not end). What goes through comes back as Prism re-sends
 * it: JSON re-serialised (10.00 arrives as 10) and binary bodies re-encoded as text, which a test that reads a
 * whole amount as a float or decodes a QR image notices; the script lists such failures apart.
 */
public final class ThroughContractProxy implements Filter {

    /** The system property that names the proxy. */
    public static final String PROXY = "api-contract.proxy";

    private static final Path OPERATIONS = Path.of("target", "prism", "operations.txt");
    private static final Path REQUESTS = Path.of("target", "prism", "requests.tsv");
    private static final Path VIOLATIONS = Path.of("target", "prism", "violations.tsv");
    // Strict as JSON.parse: "{} x" is not JSON.
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static boolean operationsListed;

    private final URI proxy;

    public ThroughContractProxy(URI proxy) {
        this.proxy = proxy;
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification responseSpec,
            FilterContext context) {
        URI service = URI.create(request.getURI());
        if (!service.getPath().startsWith("/api/") || service.getPort() != RestAssured.port
                || !prismCanRead(request.getContentType(), request.getBody())) {
            return context.next(request, responseSpec);
        }
        request.baseUri(proxy.getScheme() + "://" + proxy.getHost()).port(proxy.getPort());
        Response response = context.next(request, responseSpec);
        OpenApiAnswers document = OpenApiCheckedAnswers.documentAt(service);
        listOperations(document);
        String operation = document.operation(request.getMethod(), service.getPath());
        if (operation == null) {
            operation = request.getMethod() + " " + service.getPath() + " (not in the document)";
        }
        OpenApiCheckedAnswers.append(REQUESTS, List.of(operation + "\t" + response.getStatusCode()));
        String violations = response.getHeader("sl-violations");
        if (violations != null) {
            OpenApiCheckedAnswers.append(VIOLATIONS, lines(operation + "\t" + response.getStatusCode(), violations));
        }
        return response;
    }

    /**
     * Whether Prism can parse the request's body as its content type says. It answers malformed JSON itself (400,
     * not problem+json) and dies on a broken percent escape in a form (an uncaught URIError), so the bad-input
     * tests' unreadable bodies go direct: the document has nothing to say of them that Prism could check.
     */
    static boolean prismCanRead(String contentType, Object body) {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (!(body instanceof String || body instanceof byte[])) {
            return true; // none, or an object RestAssured serialises itself
        }
        String text = body instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : (String) body;
        if (type.contains("json")) {
            try {
                JSON.readTree(text);
                return true;
            } catch (IOException e) {
                return false;
            }
        }
        return !type.startsWith("application/x-www-form-urlencoded") || percentEscapesDecode(text);
    }

    /** As JavaScript's decodeURIComponent: every escape two hex digits, the bytes they make valid UTF-8. */
    private static boolean percentEscapesDecode(String form) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < form.length(); i++) {
            char c = form.charAt(i);
            if (c != '%') {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            } else if (i + 2 < form.length() && HexFormat.isHexDigit(form.charAt(i + 1))
                    && HexFormat.isHexDigit(form.charAt(i + 2))) {
                bytes.write(HexFormat.fromHexDigits(form, i + 1, i + 3));
                i += 2;
            } else {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.toByteArray()));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** The document's operations, for the script to tell which the run left out; once per class loader. */
    private static synchronized void listOperations(OpenApiAnswers document) {
        if (!operationsListed) {
            OpenApiCheckedAnswers.append(OPERATIONS, document.operations());
            operationsListed = true;
        }
    }

    /** One line per violation Prism names: [{"location":["response","body","name"],"severity":..,"message":..}]. */
    static List<String> lines(String answer, String header) {
        List<String> lines = new ArrayList<>();
        try {
            for (JsonNode violation : JSON.readTree(header)) {
                List<String> location = new ArrayList<>();
                violation.path("location").forEach(part -> location.add(part.asText()));
                lines.add(answer + "\t" + String.join(".", location) + "\t" + violation.path("severity").asText()
                        + "\t" + oneLine(violation.path("message").asText()));
            }
        } catch (Exception e) {
            // Prism cuts the header short past 8 KB ("Too many violations! ..."): counted as one, shown as sent.
            lines.add(answer + "\t?\tError\t" + oneLine(header));
        }
        return lines;
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s+", " ");
    }
}
