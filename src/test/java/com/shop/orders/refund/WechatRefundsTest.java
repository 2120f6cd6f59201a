package com.shop.orders.refund;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.payWechat;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
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

import com.shop.orders.sandbox.wechat.WechatFaults;
import com.shop.orders.sandbox.wechat.WechatNotifies;
import com.shop.orders.sandbox.wechat.WechatRefundView;
import com.shop.orders.sandbox.wechat.WechatSandboxKeys;
import com.shop.orders.sandbox.wechat.WechatTradeView;
import com.shop.orders.sandbox.wechat.WechatTrades;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;

/**
 * Admin refunds of WeChat-paid orders through the real SDK and the WeChat sandbox, on real MariaDB: refunds PROCESSING
 * until the refund notify or the settler's refund query says how they ended, WeChat's interval between refunds of a
 * trade, unknown answers settled once, ABNORMAL refunds, WeChat's rules checked before anything is recorded, and the
 * refund notify's checks.
 */
@QuarkusTest
class WechatRefundsTest {

    private static final String REFUND = "refund";
    private static final String REFUND_QUERY = "refundQuery";
    private static final String NOTIFY_PATH = "/api/payments/wechat/refund-notify";
    private static final Duration SETTLED = Duration.ofSeconds(30);

    @Inject
    WechatFaults faults;

    @Inject
    WechatTrades trades;

    @Inject
    WechatSandboxKeys keys;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void partialRefundsThenTheRestMakeTheOrderRefunded() {
        long sku = TestDb.newSku(10, "30.00");
        String member = newMemberToken();
        int orderId = paidOrder(member, sku, 2);

        // WeChat answers PROCESSING: PENDING until its notify (or the query) says SUCCESS.
        int first = refund(orderId, "10.00", null).then().statusCode(201).body("status", equalTo("PENDING"))
                .body("outRequestNo", equalTo(orderNo(orderId) + "-r1")).extract().path("id");
        // Asked for within WeChat's interval after the first: recorded, sent when the interval is over.
        int second = refund(orderId, "20.50", null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");
        int third = refund(orderId, "29.50", "wechat").then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");
        assertTrue(TestDb.<Object>scalar("SELECT send_at FROM refund WHERE id = ?", third).toString()
                .compareTo(TestDb.<Object>scalar("SELECT send_at FROM refund WHERE id = ?", second).toString()) > 0);

        for (int id : new int[] { first, second, third }) {
            awaitStatus(orderId, id, "SUCCEEDED");
        }
        assertEquals("REFUNDED", TestDb.orderStatus(orderId));
        WechatTradeView trade = trade(orderId);
        assertEquals(6000, trade.refunded());
        assertEquals(3, trade.refunds().size());
        assertEquals(3, trade.refunds().stream().map(WechatRefundView::outRefundNo).distinct().count());
        for (WechatRefundView refund : trade.refunds()) {
            // Once as a rule; twice only when WeChat's interval had not passed by its clock (429, nothing made),
            // which the service's margin makes rare on a loaded host.
            assertTrue(trades.calls(REFUND, refund.outRefundNo()) <= 2, refund.outRefundNo() + " sent once");
            assertTrue(refund.notified(), "every refund request names the refund notify URL");
        }
        as(member).get("/api/orders/" + orderId).then().statusCode(200).body("status", equalTo("REFUNDED"))
                .body("refundedTotal", equalTo(60.00f));
        await().atMost(SETTLED).until(() -> TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE topic = "
                + "'order-refunded' AND message_key = ?", orderNo(orderId)) == 3);
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void aProcessingRefundIsSettledByItsNotify() {
        int orderId = paidOrder(newMemberToken(), TestDb.newSku(10, "20.00"), 1);
        // The query cannot tell: only the notify can.
        faults.arm(REFUND_QUERY, new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统错误", null, false), null);
        int id = refund(orderId, "8.00", null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");
        awaitStatus(orderId, id, "SUCCEEDED");
        assertTrue(trade(orderId).refunds().get(0).notifyAcknowledged());
        assertEquals(1, trades.calls(REFUND, orderNo(orderId) + "-r1"));
    }

    @Test
    void aProcessingRefundWhoseNotifiesAreLostIsSettledByTheQuery() {
        int orderId = paidOrder(newMemberToken(), TestDb.newSku(10, "20.00"), 1);
        faults.dropNotifies(true);
        int id = refund(orderId, "20.00", null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");
        awaitStatus(orderId, id, "SUCCEEDED");
        assertEquals("REFUNDED", TestDb.orderStatus(orderId));
        String refundNo = orderNo(orderId) + "-r1";
        assertTrue(trades.calls(REFUND_QUERY, refundNo) >= 1);
        assertEquals(1, trades.calls(REFUND, refundNo));
    }

    @Test
    void anUnknownAnswerAfterTheRefundWasMadeIsSettledOnce() {
        int orderId = paidOrder(newMemberToken(), TestDb.newSku(10, "20.00"), 1);
        faults.arm(REFUND, new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统错误", null, true), 1);
        int id = refund(orderId, "7.00", null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");
        awaitStatus(orderId, id, "SUCCEEDED");
        assertEquals(1, trade(orderId).refunds().size());
        assertEquals(700, trade(orderId).refunded());
        assertEquals(1, trades.calls(REFUND, orderNo(orderId) + "-r1"), "the query found it: not sent again");
    }

    @Test
    void anUnknownAnswerBeforeTheRefundWasMadeIsSentAgainOnce() {
        int orderId = paidOrder(newMemberToken(), TestDb.newSku(10, "20.00"), 1);
        faults.arm(REFUND, new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统错误", null, false), 1);
        int id = refund(orderId, "7.00", null).then().statusCode(201).body("status", equalTo("PENDING"))
                .extract().path("id");
        awaitStatus(orderId, id, "SUCCEEDED");
        assertEquals(1, trade(orderId).refunds().size());
        assertEquals(700, trade(orderId).refunded());
        assertEquals(2, trades.calls(REFUND, orderNo(orderId) + "-r1"), "RESOURCE_NOT_EXISTS: sent again, once");
    }

    @Test
    void anAbnormalRefundWaitsForAPersonAndEndsAsTheConsoleDecides() {
        int orderId = paidOrder(newMemberToken(), TestDb.newSku(10, "10.00"), 1);
        faults.abnormalRefunds(2);
        int stuck = refund(orderId, "3.00", null).then().statusCode(201).extract().path("id");
        int closed = refund(orderId, "7.00", null).then().statusCode(201).extract().path("id");
        awaitStatus(orderId, stuck, "ABNORMAL");
        awaitStatus(orderId, closed, "ABNORMAL");
        as(adminToken()).get("/api/admin/orders/" + orderId + "/refunds/" + stuck).then().statusCode(200)
                .body("status", equalTo("ABNORMAL"));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM order_event WHERE order_no = ? AND kind = 'REFUND' "
                + "AND outcome = 'ABNORMAL' AND detail LIKE ?", orderNo(orderId), orderNo(orderId) + "-r1%"));
        await().atMost(SETTLED).until(() -> Metrics.value("refunds_abnormal") >= 2);
        // Still taken: nothing is left to refund.
        refund(orderId, "0.01", null).then().statusCode(409).body("refundable", equalTo(0.0f));

        // A person pays the first back another way; its notify is lost: the settler's slow query finds it.
        faults.dropNotifies(true);
        resolve(orderNo(orderId) + "-r1", "SUCCESS");
        awaitStatus(orderId, stuck, "SUCCEEDED");
        faults.dropNotifies(false);
        // The second is closed: its notify records it FAILED, and its amount can be refunded again.
        resolve(orderNo(orderId) + "-r2", "CLOSED");
        awaitStatus(orderId, closed, "FAILED");
        assertEquals("CLOSED", TestDb.scalar("SELECT failure_code FROM refund WHERE id = ?", closed));
        // Neither was sent again while stuck.
        assertEquals(1, trades.calls(REFUND, orderNo(orderId) + "-r1"));
        assertEquals(1, trades.calls(REFUND, orderNo(orderId) + "-r2"));

        int again = refund(orderId, "7.00", null).then().statusCode(201).extract().path("id");
        awaitStatus(orderId, again, "SUCCEEDED");
        assertEquals("REFUNDED", TestDb.orderStatus(orderId));
        assertEquals(1000, trade(orderId).refunded());
        await().atMost(SETTLED).until(() -> Metrics.value("refunds_abnormal") == 0);
    }

    @Test
    void fiftyConcurrentRefundsNeverTakeMoreThanWasPaid() throws Exception {
        int orderId = paidOrder(newMemberToken(), TestDb.newSku(10, "5.00"), 2);
        List<Callable<Integer>> requests = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            requests.add(() -> refund(orderId, "1.50", null).statusCode());
        }
        List<Integer> statuses = Concurrently.run(50, requests);

        // 10.00 paid: 6 refunds of 1.50 fit (9.00), the other 44 do not; most are sent an interval apart.
        assertEquals(6, statuses.stream().filter(s -> s == 201).count(), statuses::toString);
        assertEquals(44, statuses.stream().filter(s -> s == 409).count(), statuses::toString);
        assertTrue(new BigDecimal("10.00").compareTo(TestDb.scalar(
                "SELECT SUM(amount) FROM refund WHERE order_id = ? AND status <> 'FAILED'", orderId)) >= 0);
        await().atMost(SETTLED).until(() -> TestDb.count(
                "SELECT COUNT(*) FROM refund WHERE order_id = ? AND status <> 'SUCCEEDED'", orderId) == 0);
        assertEquals(new BigDecimal("9.00"), TestDb.scalar(
                "SELECT SUM(amount) FROM refund WHERE order_id = ? AND status = 'SUCCEEDED'", orderId));
        assertEquals(new BigDecimal("9.00"), TestDb.scalar("SELECT refund_amount FROM payment WHERE order_id = ?",
                orderId));
        assertEquals(900, trade(orderId).refunded());
        assertEquals(6, trade(orderId).refunds().size());
    }

    @Test
    void refundsWechatWouldRefuseAreProblemsAndRecordNothing() {
        long sku = TestDb.newSku(10, "10.00");
        int orderId = paidOrder(newMemberToken(), sku, 1);
        String outTradeNo = orderNo(orderId) + "W";

        refund(orderId, "1.00", "alipay").then().statusCode(409).contentType("application/problem+json")
                .body("title", equalTo("Refund on another channel")).body("paidWith", equalTo("wechat"));

        // A year and a day after the payment.
        TestDb.update("UPDATE payment SET paid_at = NOW(6) - INTERVAL 366 DAY WHERE order_id = ?", orderId);
        refund(orderId, "1.00", null).then().statusCode(409).contentType("application/problem+json")
                .body("title", equalTo("Refund period over"));
        TestDb.update("UPDATE payment SET paid_at = NOW(6) - INTERVAL 364 DAY WHERE order_id = ?", orderId);

        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
        assertEquals(0, trade(orderId).refunds().size());

        // 49 refunds made, one refused (it does not count): the 50th is WeChat's last for the trade.
        for (int i = 1; i <= 50; i++) {
            TestDb.update("INSERT INTO refund (order_id, order_no, out_trade_no, out_request_no, cause, amount, "
                    + "status, idempotency_key, request_hash, requested_at, send_at, completed_at) VALUES (?, ?, ?, ?, "
                    + "'REQUESTED', 0.01, ?, ?, '', NOW(6) - INTERVAL 1 HOUR, NOW(6) - INTERVAL 1 HOUR, "
                    + "NOW(6) - INTERVAL 1 HOUR)", orderId, orderNo(orderId), outTradeNo, "old-" + UUID.randomUUID(),
                    i == 1 ? "FAILED" : "SUCCEEDED", "old-" + i);
        }
        refund(orderId, "1.00", null).then().statusCode(201);
        refund(orderId, "1.00", null).then().statusCode(409).contentType("application/problem+json")
                .body("title", equalTo("Too many refunds")).body("maxRefunds", equalTo(50));
        assertEquals(51, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
        assertEquals(1, trade(orderId).refunds().size());
        assertEquals("PAID", TestDb.orderStatus(orderId));
    }

    @Test
    void refundNotifiesThatAreNotBelievedChangeNothingAndDuplicatesAreRecordedOnce() {
        int orderId = paidOrder(newMemberToken(), TestDb.newSku(10, "20.00"), 1);
        String outTradeNo = orderNo(orderId) + "W";
        String refundNo = orderNo(orderId) + "-r1";
        // The refund stays PENDING here: the sandbox's own notifies and queries do not get through.
        faults.dropNotifies(true);
        faults.arm(REFUND_QUERY, new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统错误", null, false), null);
        int id = refund(orderId, "5.00", null).then().statusCode(201).extract().path("id");

        String made = refundNotify("REFUND.SUCCESS", outTradeNo, refundNo, "SUCCESS", 500);
        post(made, WechatNotifies.forged(keys, made)).statusCode(401).body("code", equalTo("FAIL"));
        postSigned(refundNotify("REFUND.SUCCESS", outTradeNo, orderNo(orderId) + "-r9", "SUCCESS", 500))
                .statusCode(400).body("message", equalTo("no such refund"));
        postSigned(refundNotify("REFUND.SUCCESS", outTradeNo, refundNo, "SUCCESS", 499)).statusCode(400)
                .body("code", equalTo("FAIL"));
        postSigned(refundNotify("REFUND.SUCCESS", "OTHER" + outTradeNo, refundNo, "SUCCESS", 500)).statusCode(400);
        String wrongKey = WechatNotifies.envelope("REFUND.SUCCESS", "0123456789abcdefghijklmnopqrstuv", "refund",
                refundResource(outTradeNo, refundNo, "SUCCESS", 500));
        postSigned(wrongKey).statusCode(400);
        assertEquals("PENDING", TestDb.scalar("SELECT status FROM refund WHERE id = ?", id));
        assertEquals(0, new BigDecimal("0.00").compareTo(TestDb.scalar(
                "SELECT COALESCE(refund_amount, 0) FROM payment WHERE order_id = ?", orderId)));

        post(made, WechatNotifies.signed(keys, made)).statusCode(204);
        post(made, WechatNotifies.signed(keys, made)).statusCode(204);
        // A later notify that contradicts the recorded outcome changes nothing either.
        postSigned(refundNotify("REFUND.CLOSED", outTradeNo, refundNo, "CLOSED", 500)).statusCode(204);
        assertEquals("SUCCEEDED", TestDb.scalar("SELECT status FROM refund WHERE id = ?", id));
        assertEquals(new BigDecimal("5.00"), TestDb.scalar("SELECT refund_amount FROM payment WHERE order_id = ?",
                orderId));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE topic = 'order-refunded' "
                + "AND message_key = ?", orderNo(orderId)));
    }

    /** An order paid with WeChat Pay: its code paid at the sandbox, the payment notify taken. */
    private static int paidOrder(String member, long sku, int quantity) {
        int orderId = placeOrder(member, sku, quantity);
        payWechat(requestQr(member, orderId, "wechat"));
        await().atMost(SETTLED).until(() -> "PAID".equals(TestDb.orderStatus(orderId)));
        return orderId;
    }

    private WechatTradeView trade(int orderId) {
        return trades.trade(orderNo(orderId) + "W").orElseThrow();
    }

    private static void awaitStatus(int orderId, int refundId, String status) {
        await().atMost(SETTLED).until(() -> status.equals(TestDb.scalar(
                "SELECT status FROM refund WHERE id = ? AND order_id = ?", refundId, orderId)));
    }

    private static Response refund(int orderId, String amount, String channel) {
        String body = "{\"amount\":" + amount + (channel == null ? "" : ",\"channel\":\"" + channel + "\"") + "}";
        return as(adminToken()).header("Idempotency-Key", "k-" + UUID.randomUUID()).contentType(ContentType.JSON)
                .body(body).post("/api/admin/orders/" + orderId + "/refunds");
    }

    private static void resolve(String outRefundNo, String status) {
        given().contentType(ContentType.JSON).body(Map.of("outRefundNo", outRefundNo, "status", status))
                .post("/sandbox/wechat/merchant/refund/resolve").then().statusCode(200);
    }

    private String refundNotify(String event, String outTradeNo, String refundNo, String status, int fen) {
        return WechatNotifies.envelope(event, keys.apiV3Key(), "refund",
                refundResource(outTradeNo, refundNo, status, fen));
    }

    /** A refund as WeChat's refund notify carries it (refund_status, not status). */
    private static String refundResource(String outTradeNo, String refundNo, String status, int fen) {
        return "{\"mchid\":\"1900000001\",\"out_trade_no\":\"" + outTradeNo + "\",\"transaction_id\":"
                + "\"4200001234202606011234567890\",\"out_refund_no\":\"" + refundNo + "\",\"refund_id\":"
                + "\"50300000000000000000000000000\",\"refund_status\":\"" + status + "\",\"success_time\":"
                + "\"2026-06-01T16:03:05+08:00\",\"user_received_account\":\"支付用户零钱\",\"amount\":{\"total\":2000,"
                + "\"refund\":" + fen + ",\"payer_total\":2000,\"payer_refund\":" + fen + "}}";
    }

    private ValidatableResponse postSigned(String body) {
        return post(body, WechatNotifies.signed(keys, body));
    }

    private static ValidatableResponse post(String body, Map<String, String> headers) {
        var request = given().contentType("application/json").body(body);
        headers.forEach(request::header);
        return request.post(NOTIFY_PATH).then();
    }
}
