package com.shop.orders;

import static com.shop.orders.testsupport.Management.management;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.BuyerActionRefused;
import com.shop.orders.sandbox.SandboxTradeStatus;
import com.shop.orders.testsupport.EventStream;
import com.shop.orders.testsupport.Members;
import com.shop.orders.testsupport.PackagedServiceResource;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;

/**
 * Smoke test of the packaged service as it ships (production profile, no sandbox inside): the jar in CI,
 * the native executable when built with {@code -Dnative}. Place, pay through the Alipay sandbox, expire.
 */
@QuarkusIntegrationTest
@QuarkusTestResource(value = PackagedServiceResource.class, restrictToAnnotatedClass = true)
class PackagedServiceIT {

    @Test
    void servesHealthAndMetrics() {
        management().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        management().get("/q/metrics").then().statusCode(200).body(containsString("orders_placed_total"));
    }

    @Test
    void anOrderIsPlacedAndPaidThroughAlipay() {
        long sku = TestDb.newSku(5, "12.50");
        String member = PackagedServiceResource.memberToken("it-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(member, sku, 2);
        String qrCode = Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().path("qrCode");
        // The QR code came from the gateway over TLS, as from Alipay's.
        assertTrue(PackagedServiceResource.sandbox().gatewayUrl().startsWith("https://"));
        PackagedServiceResource.sandbox().buyer().pay(qrCode).orElseThrow();

        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        assertEquals(new TestDb.SkuRow(3, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
    }

    @Test
    void anUnpaidOrderIsClosedAtItsDeadline() throws Exception {
        long sku = TestDb.newSku(5, "3.00");
        String member = PackagedServiceResource.memberToken("it-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(member, sku, 1);
        String qrCode = Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().path("qrCode");

        await().atMost(Duration.ofSeconds(30)).until(() -> "CLOSED".equals(status(member, orderId)));
        Members.as(member).get("/api/orders/" + orderId).then().body("closeReason", equalTo("EXPIRED"));
        String orderNo = TestDb.scalar("SELECT order_no FROM orders WHERE id = ?", orderId);
        assertEquals(SandboxTradeStatus.TRADE_CLOSED,
                PackagedServiceResource.sandbox().trades().trade(orderNo).orElseThrow().status());
        assertThrows(BuyerActionRefused.class, () -> PackagedServiceResource.sandbox().buyer().pay(qrCode));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));

        // The broker checked back on it while it was pending (every second, answered UNKNOW): the RocketMQ client
        // writes a WARN line for each such answer unless its producer's category is kept at ERROR.
        Path log = Path.of("target", "quarkus.log");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(log).contains("Order " + orderNo + " closed"));
        assertFalse(Files.readString(log).contains("does not know this transaction state"),
                "a log line per check-back answered UNKNOW");
    }

    /** As it ships: the API contract, the checkout page and its live status stream, none of the dev tools. */
    @Test
    void servesTheContractAndTheCheckoutPageWithoutDevTools() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths", hasKey("/api/orders/{id}/events"))
                .body("paths", not(hasKey("/dev/token")));
        given().get("/checkout/").then().statusCode(200).contentType(containsString("text/html"));
        given().get("/checkout/checkout.js").then().statusCode(200);
        given().get("/q/swagger-ui/").then().statusCode(404);
        given().get("/dev/checkout").then().statusCode(404);
        given().get("/sandbox/alipay").then().statusCode(404);
    }

    @Test
    void theLiveStatusStreamSeesThePayment() {
        long sku = TestDb.newSku(5, "2.00");
        String member = PackagedServiceResource.memberToken("it-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(member, sku, 1);
        String qrCode = Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().path("qrCode");

        try (EventStream stream = EventStream.open("/api/orders/" + orderId + "/events", member)) {
            assertTrue(stream.next(Duration.ofSeconds(5)).data().contains("\"PENDING_PAYMENT\""));
            PackagedServiceResource.sandbox().buyer().pay(qrCode).orElseThrow();
            assertTrue(stream.next(Duration.ofSeconds(15)).data().contains("\"PAID\""));
            assertTrue(stream.endsWithin(Duration.ofSeconds(2)));
        }
    }

    private static int place(String member, long sku, int quantity) {
        return Members.as(member).contentType(ContentType.JSON).body(Map.of("items",
                java.util.List.of(Map.of("skuId", sku, "quantity", quantity))))
                .post("/api/orders").then().statusCode(201).extract().path("id");
    }

    private static String status(String member, int orderId) {
        return Members.as(member).get("/api/orders/" + orderId).then().statusCode(200).extract().path("status");
    }
}
