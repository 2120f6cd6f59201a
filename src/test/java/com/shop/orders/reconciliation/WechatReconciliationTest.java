package com.shop.orders.reconciliation;

import static com.shop.orders.reconciliation.ReconciliationTest.assertKind;
import static com.shop.orders.reconciliation.ReconciliationTest.byOutTradeNo;
import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.wechat.WechatBillFaults;
import com.shop.orders.sandbox.wechat.WechatFaults;
import com.shop.orders.sandbox.wechat.WechatTrades;
import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;

/**
 * Reconciliation of today against WeChat Pay's trade bill, through the SDK and the in-app sandbox's bill of its own
 * trades (the sandbox serves the day in progress). As in {@link ReconciliationTest}, other tests' trades of the day
 * are in the bill too: each assertion is about this test's own trade numbers, or about what a run adds.
 */
@QuarkusTest
class WechatReconciliationTest {

    private static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");
    private static final Duration SETTLED = Duration.ofSeconds(20);
    private static final WechatFaults.Fault FAILING = new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统繁忙", null,
            false);
    private static final String FOUND_MISMATCHES =
            "reconciliation_differences_found_total{channel=\"wechat\",kind=\"AMOUNT_MISMATCH\"}";

    @Inject
    WechatFaults wechatFaults;

    @Inject
    WechatTrades wechatTrades;

    @Inject
    SandboxFaults alipayFaults;

    @AfterEach
    void resetFaults() {
        wechatFaults.reset();
        alipayFaults.reset();
    }

    @Test
    void aDayOfBothChannelsReconcilesEachAgainstItsOwnBill() {
        String member = newMemberToken();
        long sku = TestDb.newSku(10, "10.00");
        int alipayOrder = placeOrder(member, sku, 1);
        pay(requestQr(member, alipayOrder));
        TestDb.awaitOrderStatus(alipayOrder, "PAID", SETTLED);
        refund(alipayOrder, "3.00");
        int wechatOrder = wechatPaid(member, sku);
        refund(wechatOrder, "2.50");
        String wechatNo = orderNo(wechatOrder) + "W";

        JsonPath wechat = run(today(), "wechat").statusCode(200).body("run.status", equalTo("DONE"))
                .body("run.channel", equalTo("wechat")).extract().jsonPath();
        assertTrue(wechat.getInt("run.billPayments") >= 1 && wechat.getInt("run.billRefunds") >= 1, wechat.prettify());
        assertEquals(Map.of(), byOutTradeNo(wechat, Set.of(wechatNo, orderNo(alipayOrder))),
                "the WeChat trade and its refund are on WeChat's bill, to the fen; the Alipay trade is not on it");
        assertTrue(wechat.getList("differences.channel").stream().allMatch("wechat"::equals));
        JsonPath alipay = run(today(), null).statusCode(200).body("run.status", equalTo("DONE"))
                .body("run.channel", equalTo("alipay")).extract().jsonPath();
        assertEquals(Map.of(), byOutTradeNo(alipay, Set.of(wechatNo, orderNo(alipayOrder), orderNo(wechatOrder))),
                "the Alipay trade and its refund are on Alipay's bill; the WeChat trade is not Alipay's");

        // Each channel's run is its own: both are there, the one asked for by its channel, Alipay's by default.
        as(adminToken()).get("/api/admin/reconciliations/" + today() + "?channel=wechat").then().statusCode(200)
                .body("run.channel", equalTo("wechat"));
        as(adminToken()).get("/api/admin/reconciliations/" + today()).then().statusCode(200)
                .body("run.channel", equalTo("alipay"));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM reconciliation_run WHERE bill_date = ? AND channel = "
                + "'wechat' AND status = 'DONE'", today()));
        // The job reconciles every configured channel's past days by itself (two days ago: due whatever the hour).
        await().atMost(SETTLED).until(() -> TestDb.count("SELECT COUNT(*) FROM reconciliation_run WHERE bill_date = ? "
                + "AND channel IN ('alipay', 'wechat') AND status = 'DONE'", today().minusDays(2)) == 2);
        as(adminToken()).contentType(ContentType.JSON).body(Map.of("billDate", today().toString(), "channel", "paypal"))
                .post("/api/admin/reconciliations").then().statusCode(400).contentType("application/problem+json")
                .body(containsString("channel"));
        as(adminToken()).get("/api/admin/reconciliations/" + today() + "?channel=paypal").then().statusCode(400)
                .contentType("application/problem+json");
    }

    @Test
    void everyKindOfDifferenceWechatsBillCanShowIsFoundSettledOrFlaggedOnce() {
        String member = newMemberToken();
        long sku = TestDb.newSku(20, "10.00");
        int matched = wechatPaid(member, sku);
        int missingAtWechat = wechatPaid(member, sku);
        int altered = wechatPaid(member, sku);
        int refundMissing = wechatPaid(member, sku);
        String refundMissingNo = refund(refundMissing, "1.00");
        int consoleRefunded = wechatPaid(member, sku);
        String console = "console-" + orderNo(consoleRefunded);
        // Refunded in WeChat Pay's merchant console: this service never heard of it.
        given().contentType(ContentType.JSON).body(Map.of("outTradeNo", number(consoleRefunded), "amount", 450,
                "outRefundNo", console)).post("/sandbox/wechat/merchant/refund").then().statusCode(200);
        await().atMost(SETTLED).until(() -> "SUCCESS".equals(wechatTrades.refund(console).orElseThrow().status()));
        int pendingButPaid = paidAtWechatOnly(member, sku);

        wechatFaults.bill(new WechatBillFaults(false, List.of(number(missingAtWechat), refundMissingNo),
                Map.of(number(altered), "0.01"), "none"));
        double mismatches = Metrics.value(FOUND_MISMATCHES);
        Set<String> mine = Set.of(number(matched), number(missingAtWechat), number(altered), number(refundMissing),
                number(consoleRefunded), number(pendingButPaid));
        JsonPath report = run(today(), "wechat").statusCode(200).body("run.status", equalTo("DONE")).extract()
                .jsonPath();
        Map<String, Map<String, Object>> found = byOutTradeNo(report, mine);
        assertEquals(Set.of(number(missingAtWechat), number(altered), number(refundMissing), number(consoleRefunded),
                number(pendingButPaid)), found.keySet(), "the matched trade has no difference: " + found);
        assertKind(found, number(missingAtWechat), "MISSING_FROM_BILL", null);
        assertTrue(((String) found.get(number(missingAtWechat)).get("detail")).contains("SUCCESS"), found.toString());
        assertKind(found, number(altered), "AMOUNT_MISMATCH", null);
        assertKind(found, number(refundMissing), "REFUND_MISSING_FROM_BILL", null);
        // Settled through the payment and refund paths of WeChat Pay.
        assertKind(found, number(pendingButPaid), "PAID_NOT_RECORDED", "CONFIRMED_PAID");
        assertEquals("PAID", TestDb.orderStatus(pendingButPaid));
        assertKind(found, number(consoleRefunded), "REFUND_NOT_RECORDED", "REFUND_RECORDED");
        assertEquals("FOUND_AT_WECHAT", TestDb.scalar(
                "SELECT cause FROM refund WHERE out_request_no = ? AND status = 'SUCCEEDED'", console));
        assertEquals(0, new BigDecimal("4.50").compareTo(TestDb.scalar(
                "SELECT refund_amount FROM payment WHERE order_id = ? AND channel = 'wechat'", consoleRefunded)));
        assertTrue(found.values().stream().allMatch(difference -> "wechat".equals(difference.get("channel"))));
        double mismatchesAfter = Metrics.value(FOUND_MISMATCHES);
        assertTrue(mismatchesAfter >= mismatches + 1, mismatches + " -> " + mismatchesAfter);
        assertTrue(Metrics.value("reconciliation_differences_unsettled{channel=\"wechat\",kind=\"MISSING_FROM_BILL\"}")
                >= 1);

        // The same day again, the same bill: nothing found twice, nothing settled twice.
        JsonPath again = run(today(), "wechat").statusCode(200).extract().jsonPath();
        assertEquals(found, byOutTradeNo(again, mine));
        assertEquals(report.getInt("run.differences"), again.getInt("run.differences"));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM refund WHERE out_request_no = ?", console));
        assertEquals(mismatchesAfter, Metrics.value(FOUND_MISMATCHES));
        assertEquals(found.size(), TestDb.count("SELECT COUNT(*) FROM reconciliation_difference WHERE bill_date = ? "
                + "AND channel = 'wechat' AND out_trade_no IN (?, ?, ?, ?, ?, ?)", today(), number(matched),
                number(missingAtWechat), number(altered), number(refundMissing), number(consoleRefunded),
                number(pendingButPaid)));
    }

    @Test
    void aWechatBillThatIsLateOrDamagedFailsTheRunStoresNothingAndIsTriedAgain() {
        String member = newMemberToken();
        long sku = TestDb.newSku(5, "3.00");
        int paid = wechatPaid(member, sku);
        run(today(), "wechat").statusCode(200).body("run.status", equalTo("DONE"));
        long differences = differencesOfToday();

        Map<WechatBillFaults, String> knobs = Map.of(
                new WechatBillFaults(true, null, null, null), "not published",
                new WechatBillFaults(false, null, null, "truncated"), "could not be read whole",
                new WechatBillFaults(false, null, null, "wrong-hash"), "SHA-1",
                new WechatBillFaults(false, null, null, "malformed"), "summary counts");
        knobs.forEach((knob, reason) -> {
            // A bill that would show a difference, were it used.
            wechatFaults.bill(new WechatBillFaults(knob.late(), List.of(number(paid)), null, knob.damage()));
            run(today(), "wechat").statusCode(200).body("run.status", equalTo("FAILED"))
                    .body("run.channel", equalTo("wechat")).body("run.lastError", containsString(reason));
            assertEquals(differences, differencesOfToday(), knob + ": a failed run stores nothing");
        });

        // The job tries the day again after the backoff, and the bill is fine by then.
        wechatFaults.reset();
        await().atMost(SETTLED).until(() -> "DONE".equals(TestDb.scalar(
                "SELECT status FROM reconciliation_run WHERE bill_date = ? AND channel = 'wechat'", today())));
        assertEquals(differences, differencesOfToday());
        assertTrue(TestDb.<Integer>scalar("SELECT attempts FROM reconciliation_run WHERE bill_date = ? AND channel = "
                + "'wechat'", today()) >= 6);
    }

    private static long differencesOfToday() {
        return TestDb.count("SELECT COUNT(*) FROM reconciliation_difference WHERE bill_date = ? AND channel = 'wechat'",
                today());
    }

    /** An order paid with WeChat Pay, its notify heard. */
    private static int wechatPaid(String member, long sku) {
        int orderId = placeOrder(member, sku, 1);
        payWechat(requestQr(member, orderId, "wechat"));
        TestDb.awaitOrderStatus(orderId, "PAID", SETTLED);
        return orderId;
    }

    /**
     * Paid at WeChat while pending, with the notify and every query and close lost until the deadline has passed:
     * the order is still pending here.
     */
    private int paidAtWechatOnly(String member, long sku) {
        wechatFaults.dropNotifies(true);
        int orderId = placeOrder(member, sku, 1);
        String codeUrl = requestQr(member, orderId, "wechat");
        wechatFaults.armFor(number(orderId), "query", FAILING, 1000);
        wechatFaults.armFor(number(orderId), "close", FAILING, 1000);
        payWechat(codeUrl);
        await().atMost(SETTLED).until(() -> TestDb.count(
                "SELECT COUNT(*) FROM orders WHERE id = ? AND pay_deadline < UTC_TIMESTAMP(6) - INTERVAL 2 SECOND",
                orderId) == 1);
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        wechatFaults.clear("query\n" + number(orderId));
        wechatFaults.dropNotifies(false);
        return orderId;
    }

    /** An admin's refund, made: its out_refund_no. */
    private static String refund(int orderId, String amount) {
        as(adminToken()).header("Idempotency-Key", "r-" + UUID.randomUUID()).contentType(ContentType.JSON)
                .body("{\"amount\":" + amount + "}").post("/api/admin/orders/" + orderId + "/refunds").then()
                .statusCode(201);
        await().atMost(SETTLED).until(() -> TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ? AND "
                + "status <> 'SUCCEEDED'", orderId) == 0);
        return TestDb.scalar("SELECT MAX(out_request_no) FROM refund WHERE order_id = ?", orderId);
    }

    private static void payWechat(String codeUrl) {
        given().contentType(ContentType.JSON).body(Map.of("codeUrl", codeUrl)).post("/sandbox/wechat/buyer/pay")
                .then().statusCode(200);
    }

    /** The order's trade number at WeChat Pay. */
    private static String number(int orderId) {
        return orderNo(orderId) + "W";
    }

    private static ValidatableResponse run(LocalDate date, String channel) {
        Map<String, String> body = new HashMap<>(Map.of("billDate", date.toString()));
        if (channel != null) {
            body.put("channel", channel);
        }
        return as(adminToken()).contentType(ContentType.JSON).body(body).post("/api/admin/reconciliations").then();
    }

    private static LocalDate today() {
        return LocalDate.now(CHINA);
    }
}
