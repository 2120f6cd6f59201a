package com.shop.orders.order;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Members.orderOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

@QuarkusTest
class OrderResourceTest {

    @Test
    void placesAnOrderLockingStockAndFixingTheDeadline() {
        long sku = TestDb.newSku(10, "12.50");
        String member = newMemberToken();
        Instant before = Instant.now();

        int id = as(member).contentType(ContentType.JSON).body(Map.of("items", List.of(Map.of("skuId", sku, "quantity", 3))))
                .post("/api/orders")
                .then().statusCode(201)
                .header("Location", notNullValue())
                .body("status", equalTo("PENDING_PAYMENT"))
                .body("totalAmount", equalTo(37.5f))
                .body("items", hasSize(1))
                .extract().path("id");

        assertEquals(new TestDb.SkuRow(10, 3), TestDb.sku(sku));
        String deadline = as(member).get("/api/orders/" + id).then().statusCode(200).extract().path("payDeadline");
        Duration window = Duration.between(before, Instant.parse(deadline));
        // %test pay timeout is 6 s
        assertEquals(6, window.toSeconds(), 1);
        as(member).get("/api/skus/" + sku).then().statusCode(200).body("available", equalTo(7));
        as(member).get("/api/skus").then().statusCode(200).body("find { it.id == " + sku + " }.available", equalTo(7));
    }

    @Test
    void multiLineOrderLocksNothingWhenOneLineLacksStock() {
        long plenty = TestDb.newSku(100, "1.00");
        long scarce = TestDb.newSku(2, "1.00");
        String member = newMemberToken();

        as(member).contentType(ContentType.JSON)
                .body(Map.of("items", List.of(Map.of("skuId", plenty, "quantity", 5), Map.of("skuId", scarce, "quantity", 3))))
                .post("/api/orders")
                .then().statusCode(409)
                .contentType("application/problem+json")
                .body("skuId", equalTo((int) scarce));

        assertEquals(new TestDb.SkuRow(100, 0), TestDb.sku(plenty));
        assertEquals(new TestDb.SkuRow(2, 0), TestDb.sku(scarce));
    }

    @Test
    void memberSeesAndCancelsOnlyOwnOrders() {
        long sku = TestDb.newSku(10, "5.00");
        String alice = newMemberToken();
        String bob = newMemberToken();
        int id = as(alice).contentType(ContentType.JSON).body(orderOf(sku, 2)).post("/api/orders")
                .then().statusCode(201).extract().path("id");

        as(bob).get("/api/orders/" + id).then().statusCode(404).contentType("application/problem+json");
        as(bob).get("/api/orders").then().statusCode(200).body("total", equalTo(0)).body("items", hasSize(0));
        as(bob).post("/api/orders/" + id + "/cancel").then().statusCode(404);
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(id));
        assertEquals(2, TestDb.sku(sku).lockStock());

        as(alice).get("/api/orders?status=PENDING_PAYMENT").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].id", equalTo(id));
        as(alice).post("/api/orders/" + id + "/cancel").then().statusCode(200)
                .body("status", equalTo("CLOSED")).body("closeReason", equalTo("MEMBER_CANCELLED"));
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
        // Cancelling again changes nothing.
        as(alice).post("/api/orders/" + id + "/cancel").then().statusCode(409);
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void idempotencyKeyRetriesYieldOneOrder() throws Exception {
        long sku = TestDb.newSku(50, "3.00");
        String member = newMemberToken();
        String key = "checkout-" + sku;

        int first = as(member).header("Idempotency-Key", key).contentType(ContentType.JSON).body(orderOf(sku, 1))
                .post("/api/orders").then().statusCode(201).extract().path("id");
        as(member).header("Idempotency-Key", key).contentType(ContentType.JSON).body(orderOf(sku, 1))
                .post("/api/orders").then().statusCode(200).header("Idempotent-Replayed", "true")
                .body("id", equalTo(first));
        // Same key, different request: refused.
        as(member).header("Idempotency-Key", key).contentType(ContentType.JSON).body(orderOf(sku, 2))
                .post("/api/orders").then().statusCode(422).contentType("application/problem+json");

        String concurrentKey = "concurrent-" + sku;
        List<Integer> ids = Concurrently.run(10, () -> as(member).header("Idempotency-Key", concurrentKey)
                .contentType(ContentType.JSON).body(orderOf(sku, 1))
                .post("/api/orders").then().extract().<Integer> path("id"));
        assertEquals(1, ids.stream().distinct().count());
        assertEquals(2, TestDb.count("SELECT COUNT(*) FROM order_item WHERE sku_id = ?", sku));
        assertEquals(2, TestDb.sku(sku).lockStock());
    }
}
