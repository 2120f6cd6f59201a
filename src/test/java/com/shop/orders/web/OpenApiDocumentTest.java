package com.shop.orders.web;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import com.shop.orders.testsupport.OpenApiAnswers;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The contract integrators take, docs/openapi.yaml, is the document the service serves at /q/openapi: compared as
 * parsed trees, so that only content counts, never formatting. The generated client of the tests
 * (checkout.GeneratedClientCheckoutTest) is generated from the file, so it too stays the service's.
 * {@code -Dapi-contract=update} writes the served document to the file instead of comparing.
 */
@QuarkusTest
class OpenApiDocumentTest {

    static final Path CONTRACT = Path.of("docs", "openapi.yaml");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final int SHOWN = 20;

    @Test
    void theCommittedContractIsTheServedDocument() throws IOException {
        if ("update".equals(System.getProperty("api-contract"))) {
            // The file as the service writes YAML, not as Jackson would.
            Files.writeString(CONTRACT, given().get("/q/openapi?format=yaml").then().statusCode(200).extract()
                    .asString(), StandardCharsets.UTF_8);
            return;
        }
        List<String> differences = new ArrayList<>();
        // The served document as the answer check of every test read it (JSON): the same tree as its YAML.
        differences("", YAML.readTree(CONTRACT.toFile()), OpenApiAnswers.served().document(), differences);
        if (!differences.isEmpty()) {
            fail(CONTRACT + " is not the document the service serves at /q/openapi (" + differences.size()
                    + " differences):\n  " + String.join("\n  ", differences.subList(0, Math.min(SHOWN, differences.size())))
                    + "\nIf the change is meant, refresh the file: ./mvnw test -Dtest=OpenApiDocumentTest "
                    + "-Dapi-contract=update, and commit it with the change.");
        }
    }

    /** The comparison itself: a field added, removed or changed anywhere is named by its JSON pointer. */
    @Test
    void aDifferenceIsNamedByWhereItIs() throws IOException {
        JsonNode committed = YAML.readTree("""
                paths:
                  /api/orders/{id}:
                    get: {summary: One order}
                  /api/skus: {}
                """);
        JsonNode served = YAML.readTree("""
                paths:
                  /api/orders/{id}:
                    get: {summary: One of the member's orders}
                  /api/skus: {}
                  /api/payment-channels: {}
                """);
        List<String> differences = new ArrayList<>();

        differences("", committed, served, differences);

        assertEquals(List.of(
                "/paths/~1api~1orders~1{id}/get/summary: the file has \"One order\", the service \"One of the member's orders\"",
                "/paths/~1api~1payment-channels: the file has nothing, the service {}"), differences);
        differences.clear();
        differences("", served, served.deepCopy(), differences);
        assertTrue(differences.isEmpty(), differences.toString());
    }

    private static void differences(String pointer, JsonNode committed, JsonNode served, List<String> out) {
        if (committed.equals(served)) {
            return;
        }
        if (committed.isObject() && served.isObject()) {
            Set<String> names = new TreeSet<>();
            committed.fieldNames().forEachRemaining(names::add);
            served.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                differences(pointer + "/" + name.replace("~", "~0").replace("/", "~1"), field(committed, name),
                        field(served, name), out);
            }
        } else if (committed.isArray() && served.isArray() && committed.size() == served.size()) {
            for (int i = 0; i < committed.size(); i++) {
                differences(pointer + "/" + i, committed.get(i), served.get(i), out);
            }
        } else {
            out.add(pointer + ": the file has " + shown(committed) + ", the service " + shown(served));
        }
    }

    private static JsonNode field(JsonNode object, String name) {
        return object.has(name) ? object.get(name) : MissingNode.getInstance();
    }

    private static String shown(JsonNode node) {
        if (node.isMissingNode()) {
            return "nothing";
        }
        String text = node.toString();
        return text.length() > 120 ? text.substring(0, 117) + "..." : text;
    }
}
