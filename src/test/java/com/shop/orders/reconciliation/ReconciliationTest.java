package com.shop.orders.reconciliation;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.alipay.BillFaults;
import com.shop.orders.sandbox.alipay.MethodFault;
import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxMerchant;
import com.shop.orders.sandbox.alipay.SandboxTrades;
import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * Reconciliation of today (the sandbox serves the day in progress) against the in-app sandbox's bill of its own
 * trades. Other tests' orders of the day are in the bill and the database too: each assertion is about this test's
 * own order numbers, or about what a run adds.
 */
@QuarkusTest
class ReconciliationTest {

    private static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");
    private static final String BILL_METHOD = "alipay.data.dataservice.bill.downloadurl.query";
    private static final String FOUND_UNKNOWN =
            "reconciliation_differences_found_total{channel=\"alipay\",kind=\"UNKNOWN_TRADE\"}";
    private static final String ALIPAY_DIFFERENCES =
            "SELECT COUNT(*) FROM reconciliation_difference WHERE bill_date = ? AND channel = 'alipay'";

    @Inject
    SandboxFaults faults;

    @Inject
    SandboxTrades trades;

    @Inject
    SandboxMerchant merchant;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void aDayWithEveryKindOfDifferenceIsFoundSettledOrFlaggedAndASecondRunAddsNothing() {
        String member = newMemberToken();
        long sku = TestDb.newSku(20, "10.00");
        int matched = paidOrder(member, sku);
        int missing = paidOrder(member, sku);
        int altered = paidOrder(member, sku);
        int refundUnknownHere = paidOrder(member, sku);
        int refundMissing = refundedAfterClose(member, sku);
        String unknown = "NOT-OURS-" + UUID.randomUUID().toString().substring(0, 8);

        // Closed here, then paid at Alipay, with the notify and every query lost: nobody here knows of the money.
        faults.dropNotifies(true);
        int closedButPaid = placeOrder(member, sku, 1);
        String closedButPaidQr = requestQr(member, closedButPaid);
        faults.failFor(orderNo(closedButPaid), "alipay.trade.query", MethodFault.httpStatus(500), 1000);
        AnotherInstance.closes(closedButPaid, "EXPIRED");
        pay(closedButPaidQr);
        // Paid at Alipay while pending, with every notify and query lost until the deadline has passed and the close
        // cannot get through: the order is still pending here.
        int pendingButPaid = placeOrder(member, sku, 1);
        String pendingNo = orderNo(pendingButPaid);
        String pendingQr = requestQr(member, pendingButPaid);
        faults.failFor(pendingNo, "alipay.trade.query", MethodFault.httpStatus(500), 1000);
        faults.failFor(pendingNo, "alipay.trade.close", MethodFault.httpStatus(500), 1000);
        faults.failFor(pendingNo, "alipay.trade.cancel", MethodFault.httpStatus(500), 1000);
        pay(pendingQr);
        await().atMost(Duration.ofSeconds(20)).until(() -> TestDb.count(
                "SELECT COUNT(*) FROM orders WHERE id = ? AND pay_deadline < UTC_TIMESTAMP(6) - INTERVAL 2 SECOND",
                pendingButPaid) == 1);
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(pendingButPaid));
        assertEquals("AWAITING_PAYMENT", TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", closedButPaid));
        faults.clear("alipay.trade.query\n" + pendingNo);
        faults.clear("alipay.trade.query\n" + orderNo(closedButPaid));

        String alteredNo = orderNo(altered);
        faults.bill(new BillFaults(false,
                List.of(new BillFaults.Row(orderNo(missing), "payment", null, null),
                        new BillFaults.Row(orderNo(refundMissing), "refund", null, null)),
                Map.of(alteredNo, "0.01"),
                List.of(new BillFaults.Row(unknown, "payment", "12.00", null),
                        new BillFaults.Row(orderNo(refundUnknownHere), "refund", "10.00", tradeNo(refundUnknownHere))),
                "none"));
        double foundBefore = Metrics.value(FOUND_UNKNOWN);

        JsonPath report = run(today()).statusCode(200).extract().jsonPath();
        assertEquals("DONE", report.getString("run.status"));
        Map<String, Map<String, Object>> mine = byOutTradeNo(report, Set.of(orderNo(matched), orderNo(missing),
                alteredNo, orderNo(refundUnknownHere), orderNo(refundMissing), unknown, orderNo(closedButPaid),
                pendingNo));
        assertEquals(Set.of(orderNo(missing), alteredNo, orderNo(refundUnknownHere), orderNo(refundMissing), unknown,
                orderNo(closedButPaid), pendingNo), mine.keySet(), "the matched order has no difference: " + mine);
        assertKind(mine, orderNo(missing), "MISSING_FROM_BILL", null);
        assertTrue(((String) mine.get(orderNo(missing)).get("detail")).contains("TRADE_SUCCESS"), mine.toString());
        assertKind(mine, alteredNo, "AMOUNT_MISMATCH", null);
        assertKind(mine, orderNo(refundUnknownHere), "REFUND_NOT_RECORDED", null);
        assertKind(mine, orderNo(refundMissing), "REFUND_MISSING_FROM_BILL", null);
        assertKind(mine, unknown, "UNKNOWN_TRADE", null);
        // Settled through the payment paths: the pending order is PAID, the closed one's money went back.
        assertKind(mine, pendingNo, "PAID_NOT_RECORDED", "CONFIRMED_PAID");
        assertKind(mine, orderNo(closedButPaid), "PAID_NOT_RECORDED", "REFUNDED");
        assertEquals("PAID", TestDb.orderStatus(pendingButPaid));
        assertEquals("CLOSED", TestDb.orderStatus(closedButPaid));
        assertEquals("REFUNDED", TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", closedButPaid));
        assertEquals(0, trades.trade(orderNo(closedButPaid)).orElseThrow().refundedAmount().compareTo(
                new java.math.BigDecimal("10.00")));
        TestDb.assertStockInvariant(sku, 20);
        TestDb.assertAllowanceInvariant(TestDb.scalar("SELECT member_id FROM orders WHERE id = ?", matched));
        // Other tests' trades of the day are in the bill too (the sandbox's own tests make trades for no order).
        double foundAfter = Metrics.value(FOUND_UNKNOWN);
        assertTrue(foundAfter >= foundBefore + 1, foundBefore + " -> " + foundAfter);
        assertTrue(Metrics.value(
                "reconciliation_differences_unsettled{channel=\"alipay\",kind=\"UNKNOWN_TRADE\"}") >= 1);

        // The same day again, the same bill: nothing found twice, nothing settled twice.
        long refundsBefore = trades.calls("alipay.trade.refund", orderNo(closedButPaid));
        JsonPath again = run(today()).statusCode(200).extract().jsonPath();
        assertEquals(report.getList("differences.id"), again.getList("differences.id").subList(0,
                report.getList("differences.id").size()));
        assertEquals(byOutTradeNo(report, mine.keySet()), byOutTradeNo(again, mine.keySet()));
        assertEquals(report.getInt("run.differences"), again.getInt("run.differences"));
        assertEquals(refundsBefore, trades.calls("alipay.trade.refund", orderNo(closedButPaid)));
        assertEquals(foundAfter, Metrics.value(FOUND_UNKNOWN));

        // A flagged difference is settled by hand, once.
        Object id = mine.get(unknown).get("id");
        as(adminToken()).contentType(ContentType.JSON).body(Map.of("note", "not ours: reported to Alipay"))
                .post("/api/admin/reconciliations/differences/" + id + "/resolution").then().statusCode(200)
                .body("settlement", equalTo("RESOLVED")).body("note", equalTo("not ours: reported to Alipay"));
        as(adminToken()).contentType(ContentType.JSON).body(Map.of("note", "again"))
                .post("/api/admin/reconciliations/differences/" + id + "/resolution").then().statusCode(409)
                .contentType("application/problem+json").body("settlement", equalTo("RESOLVED"));
        List<Object> open = as(adminToken()).get("/api/admin/reconciliations/differences").then().statusCode(200)
                .extract().jsonPath().getList("id");
        assertTrue(open.contains(mine.get(alteredNo).get("id")) && !open.contains(id), open.toString());
    }

    @Test
    void refundsMatchTheBillByRequestNumberAndOneMadeOnlyAtAlipayIsRecordedThroughTheQuery() {
        String member = newMemberToken();
        long sku = TestDb.newSku(5, "10.00");
        int orderId = paidOrder(member, sku);
        String no = orderNo(orderId);
        for (String amount : List.of("3.00", "2.50")) {
            as(adminToken()).header("Idempotency-Key", "r-" + UUID.randomUUID()).contentType(ContentType.JSON)
                    .body("{\"amount\":" + amount + "}").post("/api/admin/orders/" + orderId + "/refunds").then()
                    .statusCode(201).body("status", equalTo("SUCCEEDED"));
        }
        run(today()).statusCode(200).body("run.status", equalTo("DONE"));
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM reconciliation_difference WHERE out_trade_no = ?", no),
                "both refunds are on the bill, to the fen");

        // Refunded in Alipay's merchant console: this service never heard of it.
        merchant.refund(no, new BigDecimal("4.50"), "console-" + no).orElseThrow();
        JsonPath report = run(today()).statusCode(200).extract().jsonPath();
        Map<String, Object> found = byOutTradeNo(report, Set.of(no)).get(no);
        assertEquals("REFUND_NOT_RECORDED", found.get("kind"), found.toString());
        assertEquals("REFUND_RECORDED", found.get("settlement"), found.toString());
        assertEquals("FOUND_AT_ALIPAY", TestDb.scalar(
                "SELECT cause FROM refund WHERE out_request_no = ? AND status = 'SUCCEEDED'", "console-" + no));
        // 3.00 + 2.50 + 4.50: all of it went back.
        assertEquals("REFUNDED", TestDb.orderStatus(orderId));
        assertEquals(0, new BigDecimal("10.00").compareTo(TestDb.scalar(
                "SELECT refund_amount FROM payment WHERE order_id = ?", orderId)));
        run(today()).statusCode(200);
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM reconciliation_difference WHERE out_trade_no = ?", no),
                "a rerun adds nothing");
        assertEquals(3, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
    }

    @Test
    void aBillThatIsLateOrUnusableFailsTheRunChangesNothingAndIsTriedAgain() {
        String member = newMemberToken();
        long sku = TestDb.newSku(5, "3.00");
        paidOrder(member, sku);
        run(today()).statusCode(200);
        long differences = TestDb.count(ALIPAY_DIFFERENCES, today());

        faults.bill(new BillFaults(true, null, null, null, null));
        run(today()).statusCode(200).body("run.status", equalTo("FAILED"))
                .body("run.lastError", containsString("not published"));
        for (String damage : List.of("truncated", "utf8", "not-zip")) {
            faults.bill(new BillFaults(false, null, null,
                    List.of(new BillFaults.Row("NOT-OURS-" + damage, "payment", "1.00", null)), damage));
            String reason = run(today()).statusCode(200).body("run.status", equalTo("FAILED"))
                    .extract().path("run.lastError");
            assertTrue(reason.contains(switch (damage) {
                case "truncated" -> "truncated";
                case "utf8" -> "GBK";
                default -> "zip";
            }), damage + ": " + reason);
        }
        assertEquals(differences, TestDb.count(ALIPAY_DIFFERENCES,
                today()), "a failed run stores nothing");

        // The job tries the date again after the backoff, and the bill is fine by then.
        faults.reset();
        await().atMost(Duration.ofSeconds(20)).until(() -> "DONE".equals(TestDb.scalar(
                "SELECT status FROM reconciliation_run WHERE bill_date = ? AND channel = 'alipay'", today())));
        assertEquals(differences, TestDb.count(ALIPAY_DIFFERENCES,
                today()));
    }

    @Test
    void twoInstancesAtOnceMakeOneRun() throws Exception {
        run(today()).statusCode(200);
        long billQueries = trades.calls(BILL_METHOD, null);
        // Each run holds the date for a while: Alipay answers slowly.
        faults.latency(Duration.ofSeconds(2));
        List<Callable<Integer>> twoAdmins = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            twoAdmins.add(() -> run(today()).extract().statusCode());
        }
        List<Integer> statuses = Concurrently.run(2, twoAdmins);
        assertEquals(List.of(200, 409), statuses.stream().sorted().toList());
        assertEquals(billQueries + 1, trades.calls(BILL_METHOD, null));
    }

    @Test
    void badInputIsRefusedAndChangesNothing() {
        long runs = TestDb.count("SELECT COUNT(*) FROM reconciliation_run");
        for (Object date : new Object[] { "2026-13-45", "yesterday", "", 20261201 }) {
            as(adminToken()).contentType(ContentType.JSON).body(Map.of("billDate", date))
                    .post("/api/admin/reconciliations").then().statusCode(400)
                    .contentType("application/problem+json");
        }
        as(adminToken()).contentType(ContentType.JSON).body(Map.of("billDate", today().plusDays(2).toString()))
                .post("/api/admin/reconciliations").then().statusCode(400)
                .contentType("application/problem+json").body(containsString("must not be in the future"));
        as(adminToken()).contentType(ContentType.JSON).body("{}").post("/api/admin/reconciliations").then()
                .statusCode(400);
        as(newMemberToken()).contentType(ContentType.JSON).body(Map.of("billDate", today().toString()))
                .post("/api/admin/reconciliations").then().statusCode(403);
        assertEquals(runs, TestDb.count("SELECT COUNT(*) FROM reconciliation_run"));

        as(adminToken()).get("/api/admin/reconciliations/2001-01-01").then().statusCode(404)
                .contentType("application/problem+json");
        as(adminToken()).get("/api/admin/reconciliations/not-a-date").then().statusCode(400);
        as(adminToken()).contentType(ContentType.JSON).body(Map.of("note", "x"))
                .post("/api/admin/reconciliations/differences/999999999/resolution").then().statusCode(404);
        as(adminToken()).contentType(ContentType.JSON).body(Map.of("note", " "))
                .post("/api/admin/reconciliations/differences/1/resolution").then().statusCode(400);
    }

    private static io.restassured.response.ValidatableResponse run(LocalDate date) {
        return as(adminToken()).contentType(ContentType.JSON).body(Map.of("billDate", date.toString()))
                .post("/api/admin/reconciliations").then();
    }

    private static LocalDate today() {
        return LocalDate.now(CHINA);
    }

    private static int paidOrder(String member, long sku) {
        int orderId = placeOrder(member, sku, 1);
        pay(requestQr(member, orderId));
        await().atMost(Duration.ofSeconds(10)).until(() -> "PAID".equals(TestDb.orderStatus(orderId)));
        return orderId;
    }

    /** Closed here a moment before Alipay took the money: the payment is refunded. */
    private static int refundedAfterClose(String member, long sku) {
        int orderId = placeOrder(member, sku, 1);
        String qr = requestQr(member, orderId);
        AnotherInstance.closes(orderId, "EXPIRED");
        pay(qr);
        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(
                TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", orderId)));
        return orderId;
    }

    private String tradeNo(int orderId) {
        return trades.trade(orderNo(orderId)).orElseThrow().tradeNo();
    }

    /** The report's differences about these trade numbers (out_trade_no), one each at most. */
    static Map<String, Map<String, Object>> byOutTradeNo(JsonPath report, Set<String> orderNos) {
        Map<String, Map<String, Object>> found = new HashMap<>();
        List<Map<String, Object>> differences = report.getList("differences");
        for (Map<String, Object> difference : differences) {
            String no = (String) difference.get("outTradeNo");
            if (orderNos.contains(no)) {
                if (found.put(no, difference) != null) {
                    throw new AssertionError("two differences for " + no + ": " + differences);
                }
            }
        }
        return found;
    }

    static void assertKind(Map<String, Map<String, Object>> found, String orderNo, String kind,
            String settlement) {
        Map<String, Object> difference = found.get(orderNo);
        assertEquals(kind, difference.get("kind"), difference.toString());
        if (settlement == null) {
            assertNull(difference.get("settlement"), difference.toString());
        } else {
            assertEquals(settlement, difference.get("settlement"), difference.toString());
        }
    }
}
