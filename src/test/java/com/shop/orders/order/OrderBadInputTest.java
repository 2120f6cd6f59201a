package com.shop.orders.order;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/** Every bad request gets a problem+json answer with the right status and changes nothing. */
@QuarkusTest
class OrderBadInputTest {

    private static long sku;
    private String member;

    @BeforeEach
    void setUp() {
        if (sku == 0) {
            sku = TestDb.newSku(5, "2.00");
        }
        member = newMemberToken();
    }

    static Stream<Arguments> badBodies() {
        List<Map<String, Object>> tooManyLines = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            tooManyLines.add(Map.of("skuId", 1000 + i, "quantity", 1));
        }
        return Stream.of(
                Arguments.of("malformed JSON", "{\"items\": [", 400),
                Arguments.of("wrong type", "{\"items\": \"many\"}", 400),
                Arguments.of("no items", "{\"items\": []}", 400),
                Arguments.of("missing items", "{}", 400),
                Arguments.of("quantity zero", "{\"items\":[{\"skuId\":%d,\"quantity\":0}]}", 400),
                Arguments.of("quantity too big", "{\"items\":[{\"skuId\":%d,\"quantity\":1000}]}", 400),
                Arguments.of("missing sku", "{\"items\":[{\"quantity\":1}]}", 400),
                Arguments.of("duplicate sku lines", "{\"items\":[{\"skuId\":%1$d,\"quantity\":1},{\"skuId\":%1$d,\"quantity\":1}]}", 400),
                Arguments.of("too many lines", json(tooManyLines), 400),
                Arguments.of("unknown sku", "{\"items\":[{\"skuId\":987654321,\"quantity\":1}]}", 422),
                Arguments.of("not enough stock", "{\"items\":[{\"skuId\":%d,\"quantity\":6}]}", 409));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badBodies")
    void rejectsBadOrderBodies(String name, String body, int status) {
        long ordersBefore = TestDb.count("SELECT COUNT(*) FROM orders");
        as(member).contentType(ContentType.JSON).body(String.format(body, sku))
                .post("/api/orders")
                .then().statusCode(status)
                .contentType("application/problem+json")
                .body("status", equalTo(status))
                .body("title", notNullValue())
                .body("$", not(hasKey("extensions")))
                .body(not(containsString("at com.")));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM orders o JOIN order_item i ON i.order_id = o.id WHERE i.sku_id = ?", sku));
        assertEquals(ordersBefore, TestDb.count("SELECT COUNT(*) FROM orders"));
    }

    @Test
    void rejectsMissingAndInvalidTokens() {
        problem(given().contentType(ContentType.JSON).body("{\"items\":[{\"skuId\":1,\"quantity\":1}]}").post("/api/orders")
                .then(), 401);
        problem(given().auth().oauth2("not-a-jwt").get("/api/orders").then(), 401);
        problem(as(member).contentType(ContentType.JSON).body("{\"stock\": 10}").put("/api/admin/skus/" + sku + "/stock")
                .then(), 403);
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    @Test
    void rejectsOversizedBody() {
        String huge = "{\"items\":[{\"skuId\":1,\"quantity\":1}],\"pad\":\"" + "x".repeat(70_000) + "\"}";
        problem(as(member).contentType(ContentType.JSON).body(huge).post("/api/orders").then(), 413);
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    @Test
    void rejectsBadQueriesAndUnknownOrders() {
        problem(as(member).get("/api/orders?status=LOST").then(), 400);
        problem(as(member).get("/api/orders?size=1000").then(), 400);
        problem(as(member).get("/api/orders/424242424").then(), 404);
        problem(as(member).get("/api/skus/424242424").then(), 404);
    }

    @Test
    void adminRestocksButNotBelowReservations() {
        String admin = com.shop.orders.testsupport.Members.adminToken();
        long restock = TestDb.newSku(3, "1.00");
        as(member).contentType(ContentType.JSON).body(com.shop.orders.testsupport.Members.orderOf(restock, 2))
                .post("/api/orders").then().statusCode(201);
        problem(as(admin).contentType(ContentType.JSON).body("{\"stock\": 1}").put("/api/admin/skus/" + restock + "/stock")
                .then(), 409);
        problem(as(admin).contentType(ContentType.JSON).body("{\"stock\": -1}").put("/api/admin/skus/" + restock + "/stock")
                .then(), 400);
        assertEquals(new TestDb.SkuRow(3, 2), TestDb.sku(restock));
        as(admin).contentType(ContentType.JSON).body("{\"stock\": 30}").put("/api/admin/skus/" + restock + "/stock")
                .then().statusCode(200).body("stock", equalTo(30)).body("available", equalTo(28));
    }

    private static void problem(ValidatableResponse response, int status) {
        response.statusCode(status).contentType("application/problem+json").body("status", equalTo(status));
    }

    private static String json(List<Map<String, Object>> items) {
        StringBuilder sb = new StringBuilder("{\"items\":[");
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> line = items.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"skuId\":").append(line.get("skuId"))
                    .append(",\"quantity\":").append(line.get("quantity")).append('}');
        }
        return sb.append("]}").toString();
    }
}
