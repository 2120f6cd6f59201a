package com.shop.orders.order;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Members.orderOf;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.TestDb;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * A member whose token this instance has verified, asking again for a SKU remembered sold out, is answered before the
 * REST layer with the REST layer's own 409; every request it cannot judge the same way goes on to the REST layer and
 * gets that layer's answer, the body it read included.
 */
@QuarkusTest
class SoldOutFastPathTest {

    @Inject
    OrderConfig config;

    @Inject
    MeterRegistry registry;

    private long soldOutSku;
    private String loser;

    @BeforeEach
    void sellOut() {
        soldOutSku = TestDb.newSku(1, "3.00");
        place(newMemberToken(), soldOutSku).then().statusCode(201);
        loser = newMemberToken();
        place(loser, soldOutSku).then().statusCode(409);
    }

    @Test
    void aVerifiedMemberAskingAgainGetsTheSameProblemWithoutTheRestLayer() {
        String other = newMemberToken();
        Response first = place(other, soldOutSku);
        double overHttp = answers("memory", "http");
        double inPlacement = answers("memory", "rest");
        double database = answers("database", "rest");

        Response again = place(other, soldOutSku);

        again.then().statusCode(409).contentType(equalTo("application/problem+json"))
                .body("title", equalTo("Insufficient stock")).body("skuId", equalTo((int) soldOutSku));
        assertEquals(first.statusCode(), again.statusCode());
        assertEquals(first.jsonPath().getMap(""), again.jsonPath().getMap(""), "the REST layer's problem, as it answers it");
        assertEquals(overHttp + 1, answers("memory", "http"));
        assertEquals(inPlacement, answers("memory", "rest"), "the placement was asked");
        assertEquals(database, answers("database", "rest"), "the database was asked");
        assertEquals(new TestDb.SkuRow(1, 1), TestDb.sku(soldOutSku));
    }

    @Test
    void eachSkuGetsItsOwnProblemWhateverTheBytesOfTheOrder() {
        long other = TestDb.newSku(1, "3.00");
        place(newMemberToken(), other).then().statusCode(201);
        place(loser, other).then().statusCode(409);
        double overHttp = answers("memory", "http");

        for (int round = 0; round < 2; round++) {
            place(loser, soldOutSku).then().statusCode(409).body("skuId", equalTo((int) soldOutSku));
            place(loser, other).then().statusCode(409).body("skuId", equalTo((int) other));
        }
        as(loser).contentType(ContentType.JSON).body("{ \"items\" : [ {\"quantity\": 1, \"skuId\": " + other + "} ] }")
                .post("/api/orders").then().statusCode(409).body("skuId", equalTo((int) other));

        assertEquals(overHttp + 5, answers("memory", "http"));
        assertEquals(new TestDb.SkuRow(1, 1), TestDb.sku(other));
    }

    @Test
    void anOrderForASkuWithStockGoesOnToThePlacementWithItsBody() {
        long inStock = TestDb.newSku(5, "4.00");
        double overHttp = answers("memory", "http");

        as(loser).contentType(ContentType.JSON).body(Map.of("items", List.of(Map.of("skuId", inStock, "quantity", 2))))
                .post("/api/orders").then().statusCode(201).body("items[0].quantity", equalTo(2))
                .body("items[0].skuId", equalTo((int) inStock));
        assertEquals(overHttp, answers("memory", "http"));
        assertEquals(new TestDb.SkuRow(5, 2), TestDb.sku(inStock));
    }

    @Test
    void requestsItCannotJudgeGetTheRestLayersAnswer() {
        double overHttp = answers("memory", "http");

        as(loser).contentType(ContentType.JSON).body(orderOf(soldOutSku, 0)).post("/api/orders")
                .then().statusCode(400).body("violations[0].field", equalTo("items[0].quantity"));
        as(loser).contentType(ContentType.JSON).body(orderOf(soldOutSku, config.maxQuantity() + 1)).post("/api/orders")
                .then().statusCode(400).body("violations[0].field", equalTo("items[0].quantity"));
        as(loser).contentType(ContentType.JSON).body("{\"items\":[{\"skuId\":" + soldOutSku + ",\"quantity\":1}")
                .post("/api/orders").then().statusCode(400);
        as(loser).contentType(ContentType.TEXT).body("{\"items\":[{\"skuId\":" + soldOutSku + ",\"quantity\":1}]}")
                .post("/api/orders").then().statusCode(415);
        String admin = adminToken();
        as(admin).get("/api/admin/reconciliations/differences").then().statusCode(200);
        place(admin, soldOutSku).then().statusCode(403);
        place("not-a-token", soldOutSku).then().statusCode(401);

        assertEquals(overHttp, answers("memory", "http"));
    }

    @Test
    void aRetryWithItsIdempotencyKeyStillGetsItsOrderBack() {
        long sku = TestDb.newSku(1, "3.00");
        String winner = newMemberToken();
        int won = place(winner, sku, "key-" + sku).then().statusCode(201).extract().path("id");
        place(newMemberToken(), sku).then().statusCode(409);

        place(winner, sku, "key-" + sku).then().statusCode(200).header("Idempotent-Replayed", "true")
                .body("id", equalTo(won));
    }

    @Test
    void theRecheckPastTheBoundStillReachesTheDatabase() {
        long sku = TestDb.newSku(1, "3.00");
        int won = place(newMemberToken(), sku).then().statusCode(201).extract().path("id");
        String buyer = newMemberToken();
        place(buyer, sku).then().statusCode(409);
        place(buyer, sku).then().statusCode(409);
        // Closed on another instance whose announcement was lost: only the re-check can let the buyer in.
        AnotherInstance.closes(won, "EXPIRED");

        await().atMost(config.soldOutMemory().plusSeconds(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> place(buyer, sku).statusCode() == 201);
        assertEquals(new TestDb.SkuRow(1, 1), TestDb.sku(sku));
    }

    private double answers(String from, String layer) {
        return registry.get("orders.sold.out.answers").tag("from", from).tag("layer", layer).counter().count();
    }

    private static Response place(String token, long sku) {
        return as(token).contentType(ContentType.JSON).body(orderOf(sku, 1)).post("/api/orders");
    }

    private static Response place(String token, long sku, String idempotencyKey) {
        return as(token).contentType(ContentType.JSON).header("Idempotency-Key", idempotencyKey).body(orderOf(sku, 1))
                .post("/api/orders");
    }
}
