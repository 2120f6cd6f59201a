package com.shop.orders.web;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import com.shop.orders.order.OrderResource;
import com.shop.orders.sql.DatabaseUnavailable;
import com.shop.orders.testsupport.OpenApiAnswers;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The OpenAPI document against the code: every JAX-RS endpoint of a production build is in it, nothing else
 * is, and each operation documents the errors its annotations imply (401/403 for a role, 404 for an id in the
 * path, 400/413/415 for a body, 500 always) as problem+json, with schemas and examples for what it takes and
 * answers. An endpoint added or changed without its documentation fails here.
 */
@QuarkusTest
class ApiContractTest {

    private static final String PROBLEM_REF = "#/components/schemas/Problem";

    /** A JAX-RS resource method as the code declares it. */
    record Endpoint(String method, String path, Method javaMethod) {

        String key() {
            return method + " " + path;
        }
    }

    private JsonNode document;

    // Per test, not @BeforeAll: Quarkus (and the port RestAssured uses) starts after static set-up. The document is
    // the one the answer check of every test already read and parsed.
    @BeforeEach
    void readDocument() throws IOException {
        document = OpenApiAnswers.served().document();
        // For a look at the whole document after the build.
        Files.writeString(Path.of("target", "openapi.json"), document.toPrettyString());
    }

    @Test
    void documentsExactlyTheEndpointsOfAProductionBuild() throws Exception {
        Set<String> inCode = endpoints().stream().map(Endpoint::key).collect(Collectors.toCollection(TreeSet::new));
        Set<String> documented = new TreeSet<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fieldNames()
                .forEachRemaining(method -> documented.add(method.toUpperCase() + " " + path.getKey())));

        assertTrue(inCode.size() >= 12, "endpoints found by scanning: " + inCode);
        assertEquals(inCode, documented);
        assertFalse(documented.stream().anyMatch(e -> e.contains("/sandbox") || e.contains("/dev/")), documented.toString());
    }

    @Test
    void everyOperationDocumentsItsErrorsAsProblems() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            JsonNode operation = operation(endpoint);
            JsonNode responses = operation.get("responses");
            for (String status : expectedErrors(endpoint)) {
                if (!responses.has(status)) {
                    failures.add(endpoint.key() + ": no " + status + " response");
                }
            }
            responses.fields().forEachRemaining(response -> {
                if (response.getKey().startsWith("4") || response.getKey().startsWith("5")) {
                    checkProblem(endpoint.key() + " " + response.getKey(), resolve(response.getValue()), failures);
                }
            });
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void everyOperationDescribesWhatItTakesAndAnswers() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            JsonNode operation = operation(endpoint);
            String name = endpoint.key();
            if (!operation.hasNonNull("summary") || !operation.has("tags")) {
                failures.add(name + ": no summary or tag");
            }
            operation.get("responses").fields().forEachRemaining(response -> {
                JsonNode content = resolve(response.getValue()).get("content");
                if ("204".equals(response.getKey())) {
                    // No Content: the status says it all (a notify handled), and there is nothing to describe.
                    if (content != null && !content.isEmpty()) {
                        failures.add(name + " 204: has content");
                    }
                } else if (response.getKey().startsWith("2")) {
                    checkContent(name + " " + response.getKey(), content, failures);
                }
            });
            if (endpoint.javaMethod().isAnnotationPresent(Consumes.class)) {
                JsonNode body = operation.get("requestBody");
                checkContent(name + " request body", body == null ? null : body.get("content"), failures);
            }
            Set<String> parameters = new TreeSet<>();
            if (operation.has("parameters")) {
                operation.get("parameters").forEach(p -> parameters.add(p.get("in").asText() + ":" + p.get("name").asText()));
            }
            for (String declared : declaredParameters(endpoint.javaMethod())) {
                if (!parameters.contains(declared)) {
                    failures.add(name + ": parameter " + declared + " not documented (has " + parameters + ")");
                }
            }
            boolean member = roles(endpoint.javaMethod()) != null;
            boolean secured = operation.has("security") && operation.get("security").toString().contains(ApiContract.BEARER);
            if (member != secured) {
                failures.add(name + ": security requirement " + secured + " but roles " + member);
            }
        }
        assertEquals(List.of(), failures);
    }

    /**
     * Generators, mock servers and collections key on operationIds: each operation names its own (written out in
     * its @Operation, so that renaming a Java method never renames it), lowerCamelCase and unique in the document.
     */
    @Test
    void everyOperationHasItsOwnOperationId() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Endpoint endpoint : endpoints()) {
            Operation declared = endpoint.javaMethod().getAnnotation(Operation.class);
            if (declared == null || declared.operationId().isEmpty()) {
                failures.add(endpoint.key() + ": no operationId in its @Operation");
            }
        }
        Map<String, String> owners = new TreeMap<>();
        document.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
            String name = method.getKey().toUpperCase() + " " + path.getKey();
            String id = method.getValue().path("operationId").asText("");
            if (id.isEmpty()) {
                failures.add(name + ": no operationId");
                return;
            }
            if (!id.matches("[a-z][a-zA-Z0-9]*")) {
                failures.add(name + ": operationId \"" + id + "\" is not lowerCamelCase");
            }
            String other = owners.putIfAbsent(id, name);
            if (other != null) {
                failures.add(name + ": operationId \"" + id + "\" is also " + other + "'s");
            }
        }));
        assertEquals(List.of(), failures);
    }

    @Test
    void sharedPartsAreDefinedOnce() {
        JsonNode components = document.get("components");
        JsonNode bearer = components.get("securitySchemes").get(ApiContract.BEARER);
        assertEquals("http", bearer.get("type").asText());
        assertEquals("bearer", bearer.get("scheme").asText());
        assertEquals("JWT", bearer.get("bearerFormat").asText());
        JsonNode problem = components.get("schemas").get("Problem").get("properties");
        for (String member : List.of("type", "title", "status", "detail", "instance")) {
            assertTrue(problem.has(member), "Problem." + member);
        }
        assertFalse(problem.has("extensions"), "extension members are top-level, not a nested map");
        JsonNode place = document.get("paths").get("/api/orders").get("post");
        assertTrue(place.get("parameters").toString().contains("\"Idempotency-Key\""), place.toString());
    }

    /** The order's status is an extension member of its own: "status" stays the HTTP status, as RFC 9457 has it. */
    @Test
    void conflictProblemsKeepTheHttpStatusApartFromTheOrderStatus() {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = as(member).contentType("application/json").body(com.shop.orders.testsupport.Members.orderOf(sku, 1))
                .post("/api/orders").then().statusCode(201).extract().path("id");
        as(member).post("/api/orders/" + id + "/cancel").then().statusCode(200);

        String body = as(member).post("/api/orders/" + id + "/cancel").then().statusCode(409)
                .contentType(Problem.MEDIA_TYPE).body("status", equalTo(409)).body("orderStatus", equalTo("CLOSED"))
                .extract().asString();
        assertEquals(1, body.split("\"status\"", -1).length - 1, body);
        as(member).post("/api/orders/" + id + "/payment").then().statusCode(409)
                .body("status", equalTo(409)).body("orderStatus", equalTo("CLOSED"));
    }

    /**
     * The check every API answer of the suite goes through (testsupport.OpenApiCheckedAnswers) can fail: a null where
     * the document declares a string, and a status it does not document, are reported with the request, the field
     * and what the document says; the same answer with a value passes.
     */
    @Test
    void theAnswerCheckReportsANullTheDocumentDoesNotAllow() {
        OpenApiAnswers answers = OpenApiAnswers.served();
        assertTrue(answers.openApiVersion().startsWith("3.1."), "the validator reads 3.1: " + answers.openApiVersion());
        String sku = """
                {"id":1,"code":"TEE-BLK-M","name":null,"price":59.0,"stock":100,"available":98,"buckets":1}""";

        List<String> violations = answers.violations("GET", "/api/skus/1", 200, "application/json", sku);

        assertEquals(1, violations.size(), violations.toString());
        String violation = violations.get(0);
        assertTrue(violation.startsWith("GET /api/skus/1 200 application/json: /name: null found, string expected"),
                violation);
        assertTrue(violation.contains("#/components/schemas/SkuView/properties/name"), violation);
        assertEquals(List.of(), answers.violations("GET", "/api/skus/1", 200, "application/json",
                sku.replace("\"name\":null", "\"name\":\"T-shirt, black, M\"")));
        assertTrue(answers.violations("GET", "/api/skus/1", 418, "application/json", "{}").get(0)
                .contains("status 418 is not documented"));
        // A SKU without a purchase limit says so with null, which the document allows.
        assertEquals(List.of(), answers.violations("GET", "/api/skus/1", 200, "application/json",
                sku.replace("\"name\":null", "\"name\":\"T-shirt, black, M\",\"perMemberLimit\":null")));
    }

    /** The operation a request is for, as the contract proxy's records name it (ThroughContractProxy). */
    @Test
    void theAnswerCheckNamesTheOperationOfARequest() {
        OpenApiAnswers answers = OpenApiAnswers.served();

        assertEquals("GET /api/skus/{id}", answers.operation("get", "/api/skus/1"));
        // A literal segment wins over a parameter.
        assertEquals("GET /api/admin/reconciliations/differences",
                answers.operation("GET", "/api/admin/reconciliations/differences"));
        assertEquals(null, answers.operation("DELETE", "/api/skus/1"));
        assertEquals(null, answers.operation("GET", "/api/nothing"));
        assertTrue(answers.operations().contains("PUT /api/admin/skus/{id}/buckets"), answers.operations().toString());
    }

    // ---- the code's side -------------------------------------------------------------------------------

    /** Every resource method under com.shop.orders that a production build has (no @IfBuildProfile classes). */
    static List<Endpoint> endpoints() throws IOException, URISyntaxException {
        Path classes = Path.of(OrderResource.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Endpoint> endpoints = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes.resolve("com/shop/orders"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = load(name);
                if (type == null || !type.isAnnotationPresent(jakarta.ws.rs.Path.class)
                        || type.isAnnotationPresent(IfBuildProfile.class)) {
                    continue;
                }
                for (Method method : type.getDeclaredMethods()) {
                    String httpMethod = httpMethod(method);
                    if (httpMethod != null) {
                        endpoints.add(new Endpoint(httpMethod, path(type, method), method));
                    }
                }
            }
        }
        return endpoints;
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ApiContractTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static String httpMethod(Method method) {
        return Arrays.stream(method.getAnnotations())
                .map(a -> a.annotationType().getAnnotation(HttpMethod.class))
                .filter(a -> a != null).map(HttpMethod::value).findFirst().orElse(null);
    }

    private static String path(Class<?> type, Method method) {
        String path = type.getAnnotation(jakarta.ws.rs.Path.class).value();
        jakarta.ws.rs.Path sub = method.getAnnotation(jakarta.ws.rs.Path.class);
        if (sub != null) {
            path = path + "/" + sub.value();
        }
        path = ("/" + path).replaceAll("/+", "/");
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** The errors an endpoint can answer by the look of its annotations alone. */
    private static Set<String> expectedErrors(Endpoint endpoint) {
        Method method = endpoint.javaMethod();
        // Every endpoint reads the database: its outage answers 503 with Retry-After (DatabaseUnavailable).
        Set<String> errors = new TreeSet<>(Set.of("500", "503"));
        if (roles(method) != null) {
            errors.addAll(Set.of("401", "403"));
        }
        if (endpoint.path().contains("{")) {
            errors.add("404");
        }
        Consumes consumes = method.getAnnotation(Consumes.class);
        if (consumes != null) {
            errors.addAll(Set.of("413", "415"));
            if (Arrays.asList(consumes.value()).contains(MediaType.APPLICATION_JSON)) {
                errors.add("400");
            }
        }
        if (Arrays.stream(method.getParameters()).anyMatch(ApiContractTest::isValidated)) {
            errors.add("400");
        }
        return errors;
    }

    private static boolean isValidated(Parameter parameter) {
        return Arrays.stream(parameter.getAnnotations()).map(Annotation::annotationType)
                .anyMatch(t -> t == Valid.class || t.getPackageName().equals("jakarta.validation.constraints"));
    }

    private static RolesAllowed roles(Method method) {
        RolesAllowed roles = method.getAnnotation(RolesAllowed.class);
        return roles != null ? roles : method.getDeclaringClass().getAnnotation(RolesAllowed.class);
    }

    private static List<String> declaredParameters(Method method) {
        List<String> declared = new ArrayList<>();
        for (Parameter parameter : method.getParameters()) {
            name(parameter, PathParam.class, "path", declared);
            name(parameter, QueryParam.class, "query", declared);
            name(parameter, HeaderParam.class, "header", declared);
        }
        return declared;
    }

    private static void name(AnnotatedElement parameter, Class<? extends Annotation> kind, String in, List<String> names) {
        Annotation annotation = parameter.getAnnotation(kind);
        if (annotation instanceof PathParam p) {
            names.add(in + ":" + p.value());
        } else if (annotation instanceof QueryParam q) {
            names.add(in + ":" + q.value());
        } else if (annotation instanceof HeaderParam h) {
            names.add(in + ":" + h.value());
        }
    }

    // ---- the document's side ---------------------------------------------------------------------------

    private JsonNode operation(Endpoint endpoint) {
        JsonNode path = document.get("paths").get(endpoint.path());
        JsonNode operation = path == null ? null : path.get(endpoint.method().toLowerCase());
        if (operation == null) {
            throw new AssertionError("Not documented: " + endpoint.key());
        }
        return operation;
    }

    /** A response as written, or the shared one it refers to. */
    private JsonNode resolve(JsonNode response) {
        if (!response.has("$ref")) {
            return response;
        }
        String name = response.get("$ref").asText().replace("#/components/responses/", "");
        JsonNode shared = document.get("components").get("responses").get(name);
        if (shared == null) {
            throw new AssertionError("No shared response " + response.get("$ref"));
        }
        return shared;
    }

    private static void checkProblem(String where, JsonNode response, List<String> failures) {
        JsonNode problem = response.path("content").path(Problem.MEDIA_TYPE);
        if (problem.isMissingNode()) {
            failures.add(where + ": not " + Problem.MEDIA_TYPE + " but " + response.path("content").fieldNames().next());
        } else if (!PROBLEM_REF.equals(problem.path("schema").path("$ref").asText())) {
            failures.add(where + ": schema " + problem.path("schema") + " is not the Problem schema");
        } else if (!problem.has("examples") || problem.get("examples").isEmpty()) {
            failures.add(where + ": no example");
        }
        if (!response.hasNonNull("description") || response.get("description").asText().isBlank()) {
            failures.add(where + ": no description");
        }
    }

    private static void checkContent(String where, JsonNode content, List<String> failures) {
        if (content == null || content.isEmpty()) {
            failures.add(where + ": no content");
            return;
        }
        content.fields().forEachRemaining(media -> {
            JsonNode value = media.getValue();
            if (!value.has("schema")) {
                failures.add(where + " " + media.getKey() + ": no schema");
            }
            boolean binary = "binary".equals(value.path("schema").path("format").asText());
            boolean enumerated = value.path("schema").has("enum");
            if (!binary && !enumerated && (!value.has("examples") || value.get("examples").isEmpty())) {
                failures.add(where + " " + media.getKey() + ": no example");
            }
        });
    }
}
