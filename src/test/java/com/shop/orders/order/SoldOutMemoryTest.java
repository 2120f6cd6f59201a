package com.shop.orders.order;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Members.orderOf;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.TestDb;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * A sold-out SKU is answered from memory, without asking the database, until stock may have come back: a close on
 * another instance (announced over Redis), a restock here, or at the latest after {@code shop.order.sold-out-memory}
 * (5 s in the test profile, so that only an announcement can explain a buyer let in sooner).
 */
@QuarkusTest
class SoldOutMemoryTest {

    private static final Duration SOONER_THAN_THE_BOUND = Duration.ofSeconds(2);

    @Inject
    OrderConfig config;

    @Inject
    MeterRegistry registry;

    @Inject
    RedisDataSource redis;

    @Inject
    ObjectMapper json;

    @Test
    void losersOfASoldOutSkuAreAnsweredWithoutTheDatabaseUntilAnotherInstanceReleasesStock() throws Exception {
        long sku = TestDb.newSku(1, "3.00");
        int won = place(newMemberToken(), sku).then().statusCode(201).extract().path("id");
        place(newMemberToken(), sku).then().statusCode(409).body("title", equalTo("Insufficient stock"));

        double database = answers("database");
        double memory = answers("memory");
        for (int i = 0; i < 5; i++) {
            place(newMemberToken(), sku).then().statusCode(409).contentType("application/problem+json")
                    .body("title", equalTo("Insufficient stock")).body("skuId", equalTo((int) sku));
        }
        assertEquals(database, answers("database"), "the database was asked");
        assertEquals(memory + 5, answers("memory"));

        List<Long> released = AnotherInstance.closes(won, "EXPIRED");
        String member = TestDb.scalar("SELECT member_id FROM orders WHERE id = ?", won);
        AnotherInstance.announces(redis, json, new OrderTransition(won, "n/a", member, OrderStatus.CLOSED,
                CloseReason.EXPIRED, Instant.now(), released));

        String buyer = newMemberToken();
        await().atMost(SOONER_THAN_THE_BOUND).pollInterval(Duration.ofMillis(50))
                .until(() -> place(buyer, sku).statusCode() == 201);
        assertEquals(new TestDb.SkuRow(1, 1), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 1);
    }

    @Test
    void aLostAnnouncementKeepsTheSkuSoldOutNoLongerThanTheBound() {
        long sku = TestDb.newSku(1, "3.00");
        int won = place(newMemberToken(), sku).then().statusCode(201).extract().path("id");
        place(newMemberToken(), sku).then().statusCode(409);
        AnotherInstance.closes(won, "EXPIRED");
        long closedAt = System.nanoTime();

        String buyer = newMemberToken();
        place(buyer, sku).then().statusCode(409);
        await().atMost(config.soldOutMemory().plusSeconds(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> place(buyer, sku).statusCode() == 201);
        assertTrue(Duration.ofNanos(System.nanoTime() - closedAt).compareTo(SOONER_THAN_THE_BOUND) > 0,
                "let in before the bound without an announcement: the memory did not hold");
    }

    @Test
    void aRestockLetsBuyersInAtOnce() {
        long sku = TestDb.newSku(1, "3.00");
        place(newMemberToken(), sku).then().statusCode(201);
        place(newMemberToken(), sku).then().statusCode(409);

        as(adminToken()).contentType(ContentType.JSON).body(Map.of("stock", 2)).put("/api/admin/skus/" + sku + "/stock")
                .then().statusCode(200);

        place(newMemberToken(), sku).then().statusCode(201);
        TestDb.assertStockInvariant(sku, 2);
    }

    @Test
    void aCancelHereLetsBuyersInAtOnce() {
        long sku = TestDb.newSku(1, "3.00");
        String winner = newMemberToken();
        int won = place(winner, sku).then().statusCode(201).extract().path("id");
        place(newMemberToken(), sku).then().statusCode(409);

        as(winner).post("/api/orders/" + won + "/cancel").then().statusCode(200);

        place(newMemberToken(), sku).then().statusCode(201);
    }

    private double answers(String from) {
        return registry.get("orders.sold.out.answers").tag("from", from).tag("layer", "rest").counter().count();
    }

    private static Response place(String token, long sku) {
        return as(token).contentType(ContentType.JSON).body(orderOf(sku, 1)).post("/api/orders");
    }
}
