package com.shop.orders.order;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.orderOf;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.Members;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * The purchase limits on the real database: bursts of parallel orders by one member never get past either limit,
 * refusals change nothing, and every way an order leaves PENDING_PAYMENT gives back exactly what it held.
 */
@QuarkusTest
class PurchaseLimitsTest {

    private static final String LIMIT_TITLE = "Purchase limit reached";

    @Inject
    OrderConfig config;

    @Test
    void fiftyParallelOrdersByOneMemberGetExactlyTheSkusLimit() throws Exception {
        long sku = TestDb.newSku(100, "5.00");
        limit(sku, 3).then().statusCode(200).body("perMemberLimit", equalTo(3));
        String member = newMemberId();

        Map<Integer, Long> byStatus = burst(Members.token(member, false), sku, 50);

        assertEquals(Map.of(201, 3L, 409, 47L), byStatus);
        assertEquals(new TestDb.SkuRow(100, 3), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 100);
        assertEquals(3, TestDb.assertAllowanceInvariant(member));
        as(Members.token(member, false)).contentType(ContentType.JSON).body(orderOf(sku, 1)).post("/api/orders")
                .then().statusCode(409).contentType("application/problem+json").body("title", equalTo(LIMIT_TITLE))
                .body("limit", equalTo("per-member")).body("skuId", equalTo((int) sku)).body("max", equalTo(3))
                .body("held", equalTo(3));
    }

    @Test
    void fiftyParallelOrdersByOneMemberGetExactlyTheUnpaidOrderLimit() throws Exception {
        int max = config.maxUnpaidPerMember();
        long sku = TestDb.newSku(100, "5.00");
        String member = newMemberId();

        Map<Integer, Long> byStatus = burst(Members.token(member, false), sku, 50);

        assertEquals(Map.of(201, (long) max, 409, 50L - max), byStatus);
        assertEquals(new TestDb.SkuRow(100, max), TestDb.sku(sku));
        assertEquals(max, TestDb.assertAllowanceInvariant(member));
        as(Members.token(member, false)).contentType(ContentType.JSON).body(orderOf(TestDb.newSku(5, "1.00"), 1))
                .post("/api/orders").then().statusCode(409).body("title", equalTo(LIMIT_TITLE))
                .body("limit", equalTo("unpaid-orders")).body("max", equalTo(max));
    }

    @Test
    void twoMembersRaceForTheLastUnitsOfALimitedSku() throws Exception {
        long sku = TestDb.newSku(3, "5.00");
        limit(sku, 2).then().statusCode(200);
        String first = newMemberId();
        String second = newMemberId();
        String firstToken = Members.token(first, false);
        String secondToken = Members.token(second, false);
        List<Callable<String>> orders = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String token = i % 2 == 0 ? firstToken : secondToken;
            String who = i % 2 == 0 ? first : second;
            orders.add(() -> place(token, sku, 1).statusCode() == 201 ? who : "refused");
        }

        Map<String, Long> winners = Concurrently.run(20, orders).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));

        assertEquals(17L, winners.get("refused"), "3 units for 20 orders: " + winners);
        assertEquals(3L, winners.getOrDefault(first, 0L) + winners.getOrDefault(second, 0L));
        assertEquals(List.of(), List.of(first, second).stream().filter(m -> winners.getOrDefault(m, 0L) > 2).toList(),
                "a member over the limit: " + winners);
        assertEquals(new TestDb.SkuRow(3, 3), TestDb.sku(sku));
        TestDb.assertAllowanceInvariant(first);
        TestDb.assertAllowanceInvariant(second);
    }

    @Test
    void aCancelGivesTheAllowanceBackExactlyOnce() {
        Sale sale = oneUnitPerMember();
        long sku = sale.sku();
        String member = sale.buyer().id();
        String token = sale.buyer().token();
        int first = place(token, sku, 1).then().statusCode(201).extract().path("id");
        place(token, sku, 1).then().statusCode(409).body("limit", equalTo("per-member"));

        as(token).post("/api/orders/" + first + "/cancel").then().statusCode(200);
        as(token).post("/api/orders/" + first + "/cancel").then().statusCode(409);
        place(token, sku, 1).then().statusCode(201);

        place(token, sku, 1).then().statusCode(409).body("held", equalTo(1));
        assertEquals(1, TestDb.assertAllowanceInvariant(member));
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void anExpiredOrderGivesTheAllowanceBack() {
        Sale sale = oneUnitPerMember();
        long sku = sale.sku();
        String member = sale.buyer().id();
        String token = sale.buyer().token();
        int expiring = place(token, sku, 1).then().statusCode(201).extract().path("id");

        TestDb.awaitOrderStatus(expiring, "CLOSED", Duration.ofSeconds(60));
        place(token, sku, 1).then().statusCode(201);
        assertEquals(1, TestDb.assertAllowanceInvariant(member));
    }

    @Test
    void paidUnitsStillCountAndThePaidOrderIsNoLongerUnpaid() {
        Sale sale = oneUnitPerMember();
        long sku = sale.sku();
        String member = sale.buyer().id();
        String token = sale.buyer().token();
        int orderId = place(token, sku, 1).then().statusCode(201).extract().path("id");

        pay(requestQr(token, orderId));
        TestDb.awaitOrderStatus(orderId, "PAID", Duration.ofSeconds(15));

        place(token, sku, 1).then().statusCode(409).body("limit", equalTo("per-member")).body("held", equalTo(1));
        assertEquals(0, TestDb.assertAllowanceInvariant(member));
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void aPaymentAfterTheCloseIsRefundedAndGivesNothingBackTwice() {
        Sale sale = oneUnitPerMember();
        long sku = sale.sku();
        String member = sale.buyer().id();
        String token = sale.buyer().token();
        int orderId = place(token, sku, 1).then().statusCode(201).extract().path("id");
        String qr = requestQr(token, orderId);
        // The race at the deadline: the order was closed (and gave back its allowances and stock, as every close
        // does) a moment before Alipay took the money.
        AnotherInstance.closes(orderId, "EXPIRED");
        TestDb.assertAllowanceInvariant(member);
        pay(qr);

        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(
                TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", orderId)));
        assertEquals("CLOSED", TestDb.orderStatus(orderId));
        assertEquals(0, TestDb.assertAllowanceInvariant(member));
        place(token, sku, 1).then().statusCode(201);
        place(token, sku, 1).then().statusCode(409).body("held", equalTo(1));
        assertEquals(1, TestDb.assertAllowanceInvariant(member));
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void theCatalogShowsTheLimitAndLiftingItLetsTheMemberBuyMore() {
        long sku = TestDb.newSku(10, "5.00");
        given().get("/api/skus/" + sku).then().statusCode(200).body("perMemberLimit", nullValue());
        limit(sku, 1).then().statusCode(200);
        given().get("/api/skus/" + sku).then().statusCode(200).body("perMemberLimit", equalTo(1));
        Buyer buyer = newBuyer();
        String member = buyer.id();
        String token = buyer.token();
        place(token, sku, 1).then().statusCode(201);
        place(token, sku, 1).then().statusCode(409);

        as(adminToken()).delete("/api/admin/skus/" + sku + "/limit").then().statusCode(200)
                .body("perMemberLimit", nullValue());
        place(token, sku, 2).then().statusCode(201);
        assertEquals(2, TestDb.assertAllowanceInvariant(member));
    }

    @Test
    void aLimitSetWhileThisInstanceStillHasTheOldOneCachedHoldsAtOnce() {
        long sku = TestDb.newSku(10, "5.00");
        Buyer buyer = newBuyer();
        String member = buyer.id();
        String token = buyer.token();
        place(token, sku, 2).then().statusCode(201);
        // Set behind the catalog's back, as an admin call on another instance would.
        TestDb.update("UPDATE sku SET per_member_limit = 2 WHERE id = ?", sku);

        place(token, sku, 1).then().statusCode(409).body("limit", equalTo("per-member")).body("held", equalTo(2));
        assertEquals(new TestDb.SkuRow(10, 2), TestDb.sku(sku));
    }

    private static Response limit(long sku, int perMember) {
        return as(adminToken()).contentType(ContentType.JSON).body(Map.of("perMemberLimit", perMember))
                .put("/api/admin/skus/" + sku + "/limit");
    }

    private static Response place(String token, long sku, int quantity) {
        return as(token).contentType(ContentType.JSON).body(orderOf(sku, quantity)).post("/api/orders");
    }

    private static Map<Integer, Long> burst(String token, long sku, int orders) throws Exception {
        return Concurrently.run(orders, () -> place(token, sku, 1).statusCode()).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    /** A SKU of 10 units limited to 1 per member, and a member of the test's own to buy it. */
    private record Sale(long sku, Buyer buyer) {
    }

    private static Sale oneUnitPerMember() {
        long sku = TestDb.newSku(10, "5.00");
        limit(sku, 1).then().statusCode(200);
        return new Sale(sku, newBuyer());
    }

    /** A member of the test's own, by id (for the database's view) and token (for the API). */
    private record Buyer(String id, String token) {
    }

    private static Buyer newBuyer() {
        String id = newMemberId();
        return new Buyer(id, Members.token(id, false));
    }

    private static String newMemberId() {
        return "lim-" + UUID.randomUUID().toString().substring(0, 12);
    }
}
