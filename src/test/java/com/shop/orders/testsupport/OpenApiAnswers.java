package com.shop.orders.testsupport;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
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

import io.restassured.RestAssured;

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
    private static final Map<String, OpenApiAnswers> SERVED = new ConcurrentHashMap<>();

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

    /**
     * The document the service at {@code origin} (scheme, host and port) serves, read once per origin and class
     * loader: parsing it takes about a second, and every check and test of the document shares it. Fetched without
     * RestAssured's filters: this read is not an answer of the API, and the check must not go through the proxy it
     * may set up.
     */
    public static OpenApiAnswers servedAt(String origin) {
        return SERVED.computeIfAbsent(origin, OpenApiAnswers::fetch);
    }

    /** The document of the service the test talks to (RestAssured's base URI and port). */
    public static OpenApiAnswers served() {
        return servedAt(RestAssured.baseURI + ":" + RestAssured.port);
    }

    private static OpenApiAnswers fetch(String origin) {
        URI service = URI.create(origin);
        return new OpenApiAnswers(RestAssured.given().noFilters()
                .baseUri(service.getScheme() + "://" + service.getHost()).port(service.getPort())
                .queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().asString());
    }

    /** The document as parsed; shared by every test, so only to be read. */
    public JsonNode document() {
        return document;
    }

    public String openApiVersion() {
        return document.path("openapi").asText();
    }

    /** Every operation of the document, as "GET /api/orders/{id}". */
    public List<String> operations() {
        List<String> operations = new ArrayList<>();
        for (Entry<String, JsonNode> path : document.path("paths").properties()) {
            for (String method : List.of("get", "put", "post", "delete", "options", "head", "patch", "trace")) {
                if (path.getValue().has(method)) {
                    operations.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
                }
            }
        }
        return operations;
    }

    /** The documented operation a request is for ("GET /api/orders/{id}"), or null when the document has none. */
    public String operation(String method, String path) {
        try {
            return operationDocumented(new Answer(method.toUpperCase(Locale.ROOT), path, 0, null, "")).name();
        } catch (Broken e) {
            return null;
        }
    }

    /**
     * How the answer breaks the document, one line each; empty when it keeps it. The checks in order, each only
     * when the one before passed: the operation is documented, then the status, then the media type, then the body.
     *
     * @param contentType the answer's Content-Type header, null when it has none
     * @param body        the answer's body, empty when it has none
     */
    public List<String> violations(String method, String path, int status, String contentType, String body) {
        Answer answer = new Answer(method.toUpperCase(Locale.ROOT), path, status, contentType, body);
        try {
            Located response = statusDocumented(answer, operationDocumented(answer));
            Located media = mediaTypeDocumented(answer, response);
            return media == null ? List.of() : bodyViolations(answer, media);
        } catch (Broken e) {
            return List.of(answer + ": " + e.getMessage());
        }
    }

    /** An answer as the checks see it; prints as "GET /api/skus/1 200". */
    private record Answer(String method, String path, int status, String contentType, String body) {

        @Override
        public String toString() {
            return method + " " + path + " " + status;
        }
    }

    /**
     * A part of the document: what it is called in a violation ("GET /api/skus/{id}", "404", "application/json")
     * and its JSON pointer, by which the schema validator finds a schema.
     */
    private record Located(String name, String pointer, JsonNode node) {
    }

    /** A way the answer breaks the document after which the later checks mean nothing. */
    private static final class Broken extends Exception {

        Broken(String message) {
            super(message, null, false, false);
        }
    }

    /** Checks that the document has the answer's path and method; answers that operation. */
    private Located operationDocumented(Answer answer) throws Broken {
        PathTemplate template = template(answer.path());
        if (template == null) {
            throw new Broken("the path is not in the document");
        }
        String method = answer.method().toLowerCase(Locale.ROOT);
        JsonNode operation = document.path("paths").path(template.template()).path(method);
        if (operation.isMissingNode()) {
            throw new Broken(template.template() + " documents no " + answer.method());
        }
        return new Located(answer.method() + " " + template.template(),
                "/paths/" + escape(template.template()) + "/" + method, operation);
    }

    /**
     * Checks that the operation documents the answer's status (the status itself, its range or default); answers
     * that response, the shared one where it refers to one.
     */
    private Located statusDocumented(Answer answer, Located operation) throws Broken {
        JsonNode responses = operation.node().path("responses");
        String documentedStatus = documentedStatus(responses, answer.status());
        if (documentedStatus == null) {
            List<String> documented = new ArrayList<>();
            responses.fieldNames().forEachRemaining(documented::add);
            throw new Broken("status " + answer.status() + " is not documented for " + operation.name()
                    + " (documented: " + documented + ")");
        }
        JsonNode response = responses.get(documentedStatus);
        if (response.has("$ref")) {
            String pointer = response.get("$ref").asText().substring(1);
            return new Located(documentedStatus, pointer, document.at(pointer));
        }
        return new Located(documentedStatus, operation.pointer() + "/responses/" + escape(documentedStatus), response);
    }

    /**
     * Checks that the response documents the answer's content type, or no content for no body; answers the media
     * type whose schema the body is held to, or null when there is nothing more to check: no body, or one that is
     * not JSON (a PNG, a wallet's plain-text acknowledgement, an event stream), which its media type describes.
     */
    private Located mediaTypeDocumented(Answer answer, Located response) throws Broken {
        JsonNode content = response.node().path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            if (answer.body().isEmpty()) {
                return null;
            }
            throw new Broken("a body (" + answer.contentType() + ") where the document describes none");
        }
        String mediaType = mediaType(answer.contentType());
        String documentedMedia = documentedMedia(content, mediaType);
        if (documentedMedia == null) {
            List<String> documented = new ArrayList<>();
            content.fieldNames().forEachRemaining(documented::add);
            throw new Broken("content type " + answer.contentType() + " is not documented (documented: "
                    + documented + ")");
        }
        if (!isJson(mediaType) || !content.get(documentedMedia).has("schema")) {
            return null;
        }
        return new Located(documentedMedia, response.pointer() + "/content/" + escape(documentedMedia),
                content.get(documentedMedia));
    }

    /** Every way the JSON body breaks the media type's schema, with the field and what the document says. */
    private List<String> bodyViolations(Answer answer, Located media) throws Broken {
        if (answer.body().isEmpty()) {
            throw new Broken("no body where the document describes " + media.name());
        }
        List<Error> errors;
        try {
            errors = schema(media.pointer() + "/schema").validate(answer.body(), InputFormat.JSON);
        } catch (RuntimeException e) {
            throw new Broken("the body cannot be checked: " + e);
        }
        List<String> violations = new ArrayList<>();
        for (Error error : errors) {
            violations.add(answer + " " + media.name() + ": " + error.getInstanceLocation() + ": " + error.getMessage()
                    + "; the document says " + error.getSchemaNode() + " (" + error.getSchemaLocation() + ")");
        }
        return violations;
    }

    /** The documented path the request path matches; a literal segment wins over a parameter. */
    private PathTemplate template(String path) {
        return paths.stream().filter(t -> t.pattern().matcher(path).matches()).findFirst().orElse(null);
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
