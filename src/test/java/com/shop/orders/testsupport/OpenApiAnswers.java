package com.shop.orders.testsupport;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;

/**
 * The service's own OpenAPI document as a judge of its answers: for an answer (method, path, status, content type,
 * body) it lists every way the answer breaks the document, as an integrator's contract proxy (Prism, say) would.
 * The document is read as the running service serves it (/q/openapi?format=json), not from a copy, so that what
 * is checked is what integrators get. OpenAPI 3.1 schemas are JSON Schema 2020-12: the validator reads them in
 * its OpenAPI 3.1 dialect, each response's schema found by its JSON pointer into the whole document so that the
 * document's own $refs resolve.
 */
public final class OpenApiAnswers {

    /** The name the document is registered under with the validator; never fetched from there. */
    private static final String DOCUMENT_IRI = "https://orders.test/openapi.json";

    private final JsonNode document;
    private final SchemaRegistry registry;
    private final List<PathTemplate> paths;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    /** A documented path and the pattern its parameters match (one segment each). */
    private record PathTemplate(String template, Pattern pattern, int parameters) {
    }

    public OpenApiAnswers(String json) {
        try {
            this.document = new ObjectMapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("Not a JSON OpenAPI document", e);
        }
        this.registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(),
                builder -> builder.schemas(Map.of(DOCUMENT_IRI, json)));
        List<PathTemplate> templates = new ArrayList<>();
        document.path("paths").fieldNames().forEachRemaining(template -> templates.add(new PathTemplate(template,
                Pattern.compile("^" + Pattern.quote(template).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q") + "$"),
                template.split("\\{", -1).length - 1)));
        // A literal segment wins over a parameter: /reconciliations/differences is not /reconciliations/{billDate}.
        templates.sort(Comparator.comparingInt(PathTemplate::parameters));
        this.paths = List.copyOf(templates);
    }

    /** The document the service at {@code origin} (scheme, host and port) serves. */
    public static OpenApiAnswers servedAt(String origin) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(origin + "/q/openapi?format=json"))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + origin + "/q/openapi answered " + response.statusCode());
            }
            return new OpenApiAnswers(response.body());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("Cannot read the OpenAPI document at " + origin, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String openApiVersion() {
        return document.path("openapi").asText();
    }

    /**
     * How the answer breaks the document, one line each; empty when it keeps it.
     *
     * @param contentType the answer's Content-Type header, null when it has none
     * @param body        the answer's body, empty when it has none
     */
    public List<String> violations(String method, String path, int status, String contentType, String body) {
        String answer = method.toUpperCase(Locale.ROOT) + " " + path + " " + status;
        PathTemplate template = paths.stream().filter(t -> t.pattern().matcher(path).matches()).findFirst().orElse(null);
        if (template == null) {
            return List.of(answer + ": the path is not in the document");
        }
        JsonNode operation = document.path("paths").path(template.template()).path(method.toLowerCase(Locale.ROOT));
        if (operation.isMissingNode()) {
            return List.of(answer + ": " + template.template() + " documents no " + method);
        }
        String responsePointer = "/paths/" + escape(template.template()) + "/" + method.toLowerCase(Locale.ROOT)
                + "/responses/";
        JsonNode responses = operation.path("responses");
        String documentedStatus = documentedStatus(responses, status);
        if (documentedStatus == null) {
            List<String> documented = new ArrayList<>();
            responses.fieldNames().forEachRemaining(documented::add);
            return List.of(answer + ": status " + status + " is not documented for " + method + " "
                    + template.template() + " (documented: " + documented + ")");
        }
        responsePointer += escape(documentedStatus);
        JsonNode response = responses.get(documentedStatus);
        if (response.has("$ref")) {
            String ref = response.get("$ref").asText();
            responsePointer = ref.substring(1);
            response = document.at(responsePointer);
        }
        JsonNode content = response.path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            return body.isEmpty() ? List.of()
                    : List.of(answer + ": a body (" + contentType + ") where the document describes none");
        }
        String mediaType = mediaType(contentType);
        String documentedMedia = documentedMedia(content, mediaType);
        if (documentedMedia == null) {
            List<String> documented = new ArrayList<>();
            content.fieldNames().forEachRemaining(documented::add);
            return List.of(answer + ": content type " + contentType + " is not documented (documented: " + documented + ")");
        }
        // Only JSON bodies are checked against their schema: a PNG, a wallet's plain-text acknowledgement or an
        // event stream is described by its media type, which is checked above.
        if (!isJson(mediaType) || !content.get(documentedMedia).has("schema")) {
            return List.of();
        }
        if (body.isEmpty()) {
            return List.of(answer + ": no body where the document describes " + documentedMedia);
        }
        String schemaPointer = responsePointer + "/content/" + escape(documentedMedia) + "/schema";
        List<Error> errors;
        try {
            errors = schema(schemaPointer).validate(body, InputFormat.JSON);
        } catch (RuntimeException e) {
            return List.of(answer + ": the body cannot be checked: " + e);
        }
        List<String> violations = new ArrayList<>();
        for (Error error : errors) {
            violations.add(answer + " " + documentedMedia + ": " + error.getInstanceLocation() + ": " + error.getMessage()
                    + "; the document says " + error.getSchemaNode() + " (" + error.getSchemaLocation() + ")");
        }
        return violations;
    }

    private Schema schema(String pointer) {
        return schemas.computeIfAbsent(pointer, p -> registry.getSchema(SchemaLocation.of(DOCUMENT_IRI + "#" + fragment(p))));
    }

    /** The response key that covers the status: the status itself, its range (4XX), or default. */
    private static String documentedStatus(JsonNode responses, int status) {
        for (String key : List.of(Integer.toString(status), (status / 100) + "XX", "default")) {
            if (responses.has(key)) {
                return key;
            }
        }
        return null;
    }

    private static String documentedMedia(JsonNode content, String mediaType) {
        if (mediaType == null) {
            return null;
        }
        String range = mediaType.substring(0, mediaType.indexOf('/') + 1) + "*";
        for (Entry<String, JsonNode> entry : content.properties()) {
            String documented = entry.getKey();
            String bare = mediaType(documented);
            if (mediaType.equals(bare) || range.equals(bare) || "*/*".equals(bare)) {
                return documented;
            }
        }
        return null;
    }

    /** The media type without its parameters (charset), lower case; null for none. */
    private static String mediaType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isJson(String mediaType) {
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }

    /** A JSON pointer token (RFC 6901). */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    /** A JSON pointer as a URI fragment: every character outside the unreserved ones and '/' percent-encoded. */
    private static String fragment(String pointer) {
        return URLEncoder.encode(pointer, StandardCharsets.UTF_8).replace("+", "%20").replace("%2F", "/")
                .replace("%7E", "~");
    }
}
