package com.shop.orders.refund;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.alipay.MethodFault;
import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxTrades;
import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/** Refunds of paid orders through the real SDK and the sandbox, on real MariaDB. */
@QuarkusTest
class RefundTest {

    private static final String REFUND = "alipay.trade.refund";
    private static final Duration SETTLED = Duration.ofSeconds(20);

    @Inject
    SandboxFaults faults;

    @Inject
    SandboxTrades trades;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void partialRefundsThenTheRestMakeTheOrderRefunded() {
        long sku = TestDb.newSku(10, "30.00");
        String member = newMemberToken();
        int orderId = paidOrder(member, sku, 2);

        refund(orderId, "10.00", "price adjustment", null).then().statusCode(201)
                .header("Location", endsWith("/api/admin/orders/" + orderId + "/refunds/"
                        + TestDb.scalar("SELECT MAX(id) FROM refund WHERE order_id = ?", orderId)))
                .body("status", equalTo("SUCCEEDED")).body("amount", equalTo(10.00f))
                .body("reason", equalTo("price adjustment")).body("cause", equalTo("REQUESTED"))
                .body("outRequestNo", equalTo(orderNo(orderId) + "-r1")).body("completedAt", notNullValue());
        assertEquals("PAID", TestDb.orderStatus(orderId));
        refund(orderId, "20.50", null, null).then().statusCode(201).body("status", equalTo("SUCCEEDED"));
        assertEquals("PAID", TestDb.orderStatus(orderId));
        refund(orderId, "29.50", "the rest", null).then().statusCode(201).body("status", equalTo("SUCCEEDED"));

        assertEquals("REFUNDED", TestDb.orderStatus(orderId));
        assertEquals("REFUNDED", TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", orderId));
        assertEquals(0, new BigDecimal("60.00").compareTo(trades.trade(orderNo(orderId)).orElseThrow().refundedAmount()));
        as(adminToken()).get("/api/admin/orders/" + orderId + "/refunds").then().statusCode(200)
                .body("", hasSize(3)).body("[1].amount", equalTo(20.50f)).body("[2].reason", equalTo("the rest"));
        // The member sees the refunds, not the admins' reasons.
        as(member).get("/api/orders/" + orderId).then().statusCode(200)
                .body("status", equalTo("REFUNDED")).body("refundedTotal", equalTo(60.00f))
                .body("refundedAt", notNullValue())
                .body("refunds", hasSize(3)).body("refunds[0].amount", equalTo(10.00f))
                .body("refunds[0].status", equalTo("SUCCEEDED")).body("refunds[0].reason", nullValue());
        // Nothing is left: a refund of a refunded order is refused.
        refund(orderId, "0.01", null, null).then().statusCode(409).body("orderStatus", equalTo("REFUNDED"));
        await().atMost(SETTLED).until(() -> TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE topic = 'order-refunded'"
                + " AND message_key = ? AND published_at IS NOT NULL", orderNo(orderId)) == 3);
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void aRefundOverWhatIsLeftIsRefusedAndChangesNothing() {
        long sku = TestDb.newSku(10, "20.00");
        int orderId = paidOrder(newMemberToken(), sku, 1);
        refund(orderId, "20.01", null, null).then().statusCode(409)
                .contentType("application/problem+json").body("title", equalTo("Refund exceeds payment"))
                .body("refundable", equalTo(20.00f));
        refund(orderId, "15.00", null, null).then().statusCode(201);
        refund(orderId, "5.01", null, null).then().statusCode(409).body("refundable", equalTo(5.00f));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
        assertEquals(1, trades.calls(REFUND, orderNo(orderId)));
    }

    @Test
    void badInputIsAProblemAndRecordsNothing() {
        long sku = TestDb.newSku(10, "20.00");
        long other = TestDb.newSku(10, "1.00");
        String member = newMemberToken();
        int orderId = paidOrder(member, sku, 2);
        String path = "/api/admin/orders/" + orderId + "/refunds";

        for (String amount : List.of("0", "-1.00", "1.001")) {
            refund(orderId, amount, null, null).then().statusCode(400).contentType("application/problem+json");
        }
        refundWith(orderId, "k-" + UUID.randomUUID(), Map.of("reason", "no amount")).then().statusCode(400);
        refundWith(orderId, "k-" + UUID.randomUUID(), Map.of("amount", 1, "reason", "x".repeat(257))).then().statusCode(400);
        // No Idempotency-Key, or one that is not 1-100 visible characters.
        as(adminToken()).contentType(ContentType.JSON).body(Map.of("amount", 1)).post(path).then().statusCode(400)
                .contentType("application/problem+json");
        refundWith(orderId, "has space", Map.of("amount", 1)).then().statusCode(400);
        // A member may not refund, not even their own order.
        as(member).header("Idempotency-Key", "k1").contentType(ContentType.JSON).body(Map.of("amount", 1))
                .post(path).then().statusCode(403);
        refund(999_999_999, "1.00", null, null).then().statusCode(404).contentType("application/problem+json");
        // Restock: a SKU the order does not hold, the same SKU twice, more units than it held.
        refundWith(orderId, "k-" + UUID.randomUUID(), Map.of("amount", 1, "restock",
                List.of(Map.of("skuId", other, "quantity", 1)))).then().statusCode(400);
        refundWith(orderId, "k-" + UUID.randomUUID(), Map.of("amount", 1, "restock",
                List.of(Map.of("skuId", sku, "quantity", 1), Map.of("skuId", sku, "quantity", 1)))).then().statusCode(400);
        refundWith(orderId, "k-" + UUID.randomUUID(), Map.of("amount", 1, "restock",
                List.of(Map.of("skuId", sku, "quantity", 3)))).then().statusCode(409)
                .body("skuId", equalTo((int) sku)).body("restockable", equalTo(2));
        // Orders that are not paid: pending, and closed unpaid.
        int pending = placeOrder(member, sku, 1);
        refund(pending, "1.00", null, null).then().statusCode(409).body("orderStatus", equalTo("PENDING_PAYMENT"));
        AnotherInstance.closes(pending, "MEMBER_CANCELLED");
        refund(pending, "1.00", null, null).then().statusCode(409).body("orderStatus", equalTo("CLOSED"));

        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id IN (?, ?)", orderId, pending));
        as(adminToken()).get(path).then().statusCode(200).body("", hasSize(0));
        assertEquals(0, trades.calls(REFUND, orderNo(orderId)));
        assertEquals("PAID", TestDb.orderStatus(orderId));
    }

    @Test
    void theSameKeyAnswersTheSameRefundAndAnotherBodyIsAConflict() {
        long sku = TestDb.newSku(10, "20.00");
        int orderId = paidOrder(newMemberToken(), sku, 1);
        String key = "return-" + UUID.randomUUID();
        Map<String, Object> body = Map.of("amount", 5, "reason", "late delivery");
        int first = refundWith(orderId, key, body).then().statusCode(201).extract().path("id");
        refundWith(orderId, key, Map.of("amount", 5.00, "reason", "late delivery")).then().statusCode(200)
                .header("Idempotent-Replayed", "true").body("id", equalTo(first)).body("status", equalTo("SUCCEEDED"));
        refundWith(orderId, key, Map.of("amount", 6, "reason", "late delivery")).then().statusCode(409)
                .body("title", equalTo("Idempotency key reused"));
        as(adminToken()).get("/api/admin/orders/" + orderId + "/refunds/" + first).then().statusCode(200)
                .body("amount", equalTo(5.00f));
        as(adminToken()).get("/api/admin/orders/" + orderId + "/refunds/" + (first + 100_000)).then().statusCode(404);
        assertEquals(1, trades.calls(REFUND, orderNo(orderId)));
        assertEquals(0, new BigDecimal("5.00").compareTo(trades.trade(orderNo(orderId)).orElseThrow().refundedAmount()));
    }

    @Test
    void fiftyConcurrentRefundsNeverTakeMoreThanWasPaid() throws Exception {
        long sku = TestDb.newSku(10, "25.00");
        int orderId = paidOrder(newMemberToken(), sku, 2);
        List<Callable<Integer>> requests = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            requests.add(() -> refund(orderId, "1.50", null, null).statusCode());
        }
        List<Integer> statuses = Concurrently.run(50, requests);

        // 50.00 paid: 33 refunds of 1.50 fit (49.50), the other 17 do not.
        assertEquals(33, statuses.stream().filter(s -> s == 201).count(), statuses::toString);
        assertEquals(17, statuses.stream().filter(s -> s == 409).count(), statuses::toString);
        // Refunds the Alipay bulkhead could not take at once are settled by the settler.
        await().atMost(SETTLED).until(() -> TestDb.count(
                "SELECT COUNT(*) FROM refund WHERE order_id = ? AND status <> 'SUCCEEDED'", orderId) == 0);
        assertEquals(new BigDecimal("49.50"), TestDb.scalar(
                "SELECT SUM(amount) FROM refund WHERE order_id = ? AND status = 'SUCCEEDED'", orderId));
        assertEquals(0, new BigDecimal("49.50").compareTo(trades.trade(orderNo(orderId)).orElseThrow().refundedAmount()));
        assertEquals(33, TestDb.count("SELECT COUNT(DISTINCT out_request_no) FROM refund WHERE order_id = ?", orderId));
        // The payment's total is the sum of them, however the completions interleaved.
        assertEquals(new BigDecimal("49.50"), TestDb.scalar("SELECT refund_amount FROM payment WHERE order_id = ?", orderId));
        assertEquals("PAID", TestDb.orderStatus(orderId));
    }

    @Test
    void anAnswerThatNeverArrivesIsSettledByTheQueryWithoutRefundingTwice() {
        long sku = TestDb.newSku(10, "20.00");
        int orderId = paidOrder(newMemberToken(), sku, 1);
        // Alipay refunds, and its answer outlasts the client's read time-out.
        faults.fail(REFUND, MethodFault.noAnswerFor(Duration.ofSeconds(5)), 1);
        int id = refund(orderId, "8.00", null, null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");

        awaitStatus(orderId, id, "SUCCEEDED");
        assertEquals(0, new BigDecimal("8.00").compareTo(trades.trade(orderNo(orderId)).orElseThrow().refundedAmount()));
        // The query found it made: not sent again.
        assertEquals(1, trades.calls(REFUND, orderNo(orderId)));
        assertTrue(trades.calls("alipay.trade.fastpay.refund.query", orderNo(orderId)) >= 1);
    }

    @Test
    void aSystemErrorAfterTheRefundWasMadeIsSettledAsMadeOnce() {
        long sku = TestDb.newSku(10, "20.00");
        int orderId = paidOrder(newMemberToken(), sku, 1);
        // One fault per method at a time: each refund meets its own.
        faults.fail(REFUND, MethodFault.systemError().withAfterEffect(), 1);
        int first = refund(orderId, "7.00", null, null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");
        faults.fail(REFUND, MethodFault.httpStatus(504).withAfterEffect(), 1);
        int second = refund(orderId, "6.00", null, null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");

        awaitStatus(orderId, first, "SUCCEEDED");
        awaitStatus(orderId, second, "SUCCEEDED");
        var trade = trades.trade(orderNo(orderId)).orElseThrow();
        assertEquals(0, new BigDecimal("13.00").compareTo(trade.refundedAmount()));
        assertEquals(List.of(orderNo(orderId) + "-r1", orderNo(orderId) + "-r2"),
                trade.refunds().stream().map(r -> r.requestNo()).toList());
        assertEquals(2, trades.calls(REFUND, orderNo(orderId)), "the query found both made: neither sent again");
    }

    @Test
    void aRefundAlipayDidNotMakeIsSentAgainWithTheSameRequestNumber() {
        long sku = TestDb.newSku(10, "20.00");
        int orderId = paidOrder(newMemberToken(), sku, 1);
        // Two attempts fail before Alipay made anything: the first answer, and the settler's first resend.
        faults.fail(REFUND, MethodFault.systemError(), 2);
        int id = refund(orderId, "20.00", null, null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");

        awaitStatus(orderId, id, "SUCCEEDED");
        assertEquals("REFUNDED", TestDb.orderStatus(orderId));
        assertEquals(0, new BigDecimal("20.00").compareTo(trades.trade(orderNo(orderId)).orElseThrow().refundedAmount()));
        assertTrue(trades.calls(REFUND, orderNo(orderId)) >= 3);
        assertEquals(List.of(orderNo(orderId) + "-r1"), trades.trade(orderNo(orderId)).orElseThrow().refunds().stream()
                .map(r -> r.requestNo()).toList());
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
    }

    @Test
    void aRefusedRefundIsFailedWithAlipaysReasonAndFreesItsAmount() {
        long sku = TestDb.newSku(10, "20.00");
        int orderId = paidOrder(newMemberToken(), sku, 1);
        faults.fail(REFUND, MethodFault.alipayError("40004", "Business Failed", "ACQ.SELLER_BALANCE_NOT_ENOUGH",
                "merchant balance not enough"), 1);
        refund(orderId, "20.00", null, null).then().statusCode(201).body("status", equalTo("FAILED"))
                .body("failureCode", equalTo("ACQ.SELLER_BALANCE_NOT_ENOUGH"))
                .body("failureReason", equalTo("merchant balance not enough"));
        assertEquals("PAID", TestDb.orderStatus(orderId));
        assertEquals(0, BigDecimal.ZERO.compareTo(trades.trade(orderNo(orderId)).orElseThrow().refundedAmount()));

        refund(orderId, "20.00", null, null).then().statusCode(201).body("status", equalTo("SUCCEEDED"))
                .body("outRequestNo", equalTo(orderNo(orderId) + "-r2"));
        assertEquals("REFUNDED", TestDb.orderStatus(orderId));
    }

    @Test
    void restockedUnitsGoBackOnSaleAndOffTheMembersLimit() {
        long sku = TestDb.newSku(5, "10.00");
        TestDb.update("UPDATE sku SET per_member_limit = 3 WHERE id = ?", sku);
        String member = newMemberToken();
        int orderId = paidOrder(member, sku, 3);
        String memberId = TestDb.scalar("SELECT member_id FROM orders WHERE id = ?", orderId);
        as(member).contentType(ContentType.JSON).body(Map.of("items", List.of(Map.of("skuId", sku, "quantity", 1))))
                .post("/api/orders").then().statusCode(409).body("limit", equalTo("per-member"));

        refundWith(orderId, "k-" + UUID.randomUUID(), Map.of("amount", 20, "restock",
                List.of(Map.of("skuId", sku, "quantity", 2)))).then().statusCode(201)
                .body("status", equalTo("SUCCEEDED")).body("restock[0].quantity", equalTo(2));

        assertEquals(new TestDb.SkuRow(4, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
        TestDb.assertAllowanceInvariant(memberId);
        // One unit is left to return; the member may buy two again.
        refundWith(orderId, "k-" + UUID.randomUUID(), Map.of("amount", 1, "restock",
                List.of(Map.of("skuId", sku, "quantity", 2)))).then().statusCode(409).body("restockable", equalTo(1));
        placeOrder(member, sku, 2);
        TestDb.assertAllowanceInvariant(memberId);
    }

    @Test
    void aPaymentForAClosedOrderWhoseQrCodeWasNeverStoredIsRefunded() {
        long sku = TestDb.newSku(5, "8.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 2);
        String no = orderNo(orderId);
        // Alipay made the QR code, its answer never came back: the trade is recorded, without a code.
        faults.fail("alipay.trade.precreate", MethodFault.noAnswerFor(Duration.ofSeconds(5)), 1);
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(503);
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM payment WHERE order_id = ? AND qr_code IS NULL", orderId));
        AnotherInstance.closes(orderId, "EXPIRED");
        pay(trades.trade(no).orElseThrow().qrCode());

        await().atMost(SETTLED).until(() -> "SUCCEEDED".equals(TestDb.scalar(
                "SELECT MAX(status) FROM refund WHERE order_id = ? AND cause = 'LATE_PAYMENT'", orderId)));
        assertEquals("REFUNDED", TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", orderId));
        assertEquals(no + "-refund", TestDb.scalar("SELECT out_request_no FROM refund WHERE order_id = ?", orderId));
        assertEquals(0, new BigDecimal("16.00").compareTo(trades.trade(no).orElseThrow().refundedAmount()));
        assertTrue(trades.trade(no).orElseThrow().notifyAcknowledged());
        assertEquals("CLOSED", TestDb.orderStatus(orderId));
        as(member).get("/api/orders/" + orderId + "/payment/qr.png").then().statusCode(404);
        TestDb.assertStockInvariant(sku, 5);
    }

    private int paidOrder(String member, long sku, int quantity) {
        int orderId = placeOrder(member, sku, quantity);
        pay(requestQr(member, orderId));
        await().atMost(SETTLED).until(() -> "PAID".equals(TestDb.orderStatus(orderId)));
        return orderId;
    }

    private static void awaitStatus(int orderId, int refundId, String status) {
        await().atMost(SETTLED).until(() -> status.equals(TestDb.scalar(
                "SELECT status FROM refund WHERE id = ? AND order_id = ?", refundId, orderId)));
    }

    private static Response refund(int orderId, String amount, String reason, List<Map<String, Object>> restock) {
        StringBuilder body = new StringBuilder("{\"amount\":").append(amount);
        if (reason != null) {
            body.append(",\"reason\":\"").append(reason).append('"');
        }
        return as(adminToken()).header("Idempotency-Key", "k-" + UUID.randomUUID()).contentType(ContentType.JSON)
                .body(body.append('}').toString()).post("/api/admin/orders/" + orderId + "/refunds");
    }

    private static Response refundWith(int orderId, String key, Map<String, Object> body) {
        return as(adminToken()).header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .post("/api/admin/orders/" + orderId + "/refunds");
    }
}
