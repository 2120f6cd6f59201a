package com.shop.orders.payment;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxTradeStatus;
import com.shop.orders.sandbox.alipay.SandboxTrades;
import com.shop.orders.sandbox.wechat.WechatFaults;
import com.shop.orders.sandbox.wechat.WechatTrades;
import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * One order, a trade per wallet the buyer asked for, paid once: the real service with Alipay's and WeChat Pay's
 * sandboxes, through the official SDKs. The test profile offers both channels.
 */
@QuarkusTest
class AggregatedPaymentTest {

    private static final Duration SETTLED = Duration.ofSeconds(30);

    @Inject
    SandboxFaults alipayFaults;

    @Inject
    SandboxTrades alipayTrades;

    @Inject
    WechatFaults wechatFaults;

    @Inject
    WechatTrades wechatTrades;

    @AfterEach
    void resetFaults() {
        alipayFaults.reset();
        wechatFaults.reset();
    }

    @Test
    void theShopOffersBothWallets() {
        given().get("/api/payment-channels").then().statusCode(200).body("channels", contains("alipay", "wechat"));
    }

    @Test
    void eachWalletHasItsOwnTradeAndAskingAgainReturnsIt() {
        String member = newMemberToken();
        int orderId = placeOrder(member, TestDb.newSku(5, "8.00"), 2);
        String no = orderNo(orderId);
        Instant asked = Instant.now();
        Map<String, Object> alipay = request(member, orderId, "alipay").then().statusCode(200)
                .body("channel", equalTo("alipay")).extract().as(Map.class);
        Map<String, Object> wechat = request(member, orderId, "wechat").then().statusCode(200)
                .body("channel", equalTo("wechat")).body("qrCode", startsWith("weixin://wxpay/bizpayurl?pr="))
                .extract().as(Map.class);

        assertEquals(wechat.get("qrCode"), request(member, orderId, "wechat").then().statusCode(200)
                .extract().path("qrCode"));
        // No body: Alipay, as the storefront asked before there were channels.
        assertEquals(alipay.get("qrCode"), as(member).post("/api/orders/" + orderId + "/payment").then()
                .statusCode(200).body("channel", equalTo("alipay")).extract().path("qrCode"));
        assertEquals(wechat.get("expiresAt"), alipay.get("expiresAt"));
        assertEquals(List.of("alipay " + no, "wechat " + no + "W"), TestDb.query(
                "SELECT channel, out_trade_no FROM payment WHERE order_id = ? ORDER BY id",
                row -> row.getString(1) + " " + row.getString(2), orderId));
        assertEquals(1, wechatTrades.calls("prepay", no + "W"));
        // WeChat's time_expire is the order's deadline, unless that is less than WeChat's one minute after the prepay
        // (tests pay within seconds): WeChat then moves it to the minute, and the order's close makes it unpayable.
        Instant deadline = Instant.parse((String) wechat.get("expiresAt"));
        Instant latest = deadline.isAfter(asked.plusSeconds(60)) ? deadline : asked.plusSeconds(62);
        Instant walletExpiry = wechatTrades.trade(no + "W").orElseThrow().expiresAt();
        assertTrue(!walletExpiry.isAfter(latest) && walletExpiry.isAfter(deadline.minusSeconds(1)),
                () -> walletExpiry + " vs " + deadline);
        given().get((String) wechat.get("qrImageUrl")).then().statusCode(200).contentType("image/png");
        as(member).get("/api/orders/" + orderId + "/payment/qr.png?channel=wechat").then().statusCode(200);
    }

    @Test
    void aWalletTheShopDoesNotOfferIsRefusedAndChangesNothing() {
        String member = newMemberToken();
        int orderId = placeOrder(member, TestDb.newSku(5, "8.00"), 1);
        request(member, orderId, "unionpay").then().statusCode(400).contentType("application/problem+json")
                .body("channels", contains("alipay", "wechat"));
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM payment WHERE order_id = ?", orderId));
    }

    @Test
    void payingByWechatPaysTheOrderAndClosesItsAlipayTrade() {
        String member = newMemberToken();
        long sku = TestDb.newSku(5, "8.00");
        int orderId = placeOrder(member, sku, 2);
        String no = orderNo(orderId);
        String alipayCode = request(member, orderId, "alipay").then().statusCode(200).extract().path("qrCode");
        payWechat(request(member, orderId, "wechat").then().statusCode(200).extract().path("qrCode"));

        TestDb.awaitOrderStatus(orderId, "PAID", SETTLED);
        await().atMost(SETTLED).until(() -> "CLOSED".equals(TestDb.scalar(
                "SELECT status FROM payment WHERE order_id = ? AND channel = 'alipay'", orderId)));
        assertEquals("PAID 1", TestDb.scalar("SELECT CONCAT(status, ' ', accepted) FROM payment WHERE order_id = ?"
                + " AND channel = 'wechat'", orderId));
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, alipayTrades.trade(no).orElseThrow().status());
        given().contentType(ContentType.JSON).body(Map.of("qrCode", alipayCode)).post("/sandbox/alipay/buyer/pay")
                .then().statusCode(org.hamcrest.Matchers.not(200));
        assertEquals(new TestDb.SkuRow(3, 0), TestDb.sku(sku));
    }

    @Test
    void bothWalletsPaidAtOnceKeepOnePaymentAndRefundTheOtherInFullOnce() throws Exception {
        String member = newMemberToken();
        long sku = TestDb.newSku(5, "8.00");
        int orderId = placeOrder(member, sku, 2);
        String no = orderNo(orderId);
        String alipayCode = request(member, orderId, "alipay").then().statusCode(200).extract().path("qrCode");
        String wechatCode = request(member, orderId, "wechat").then().statusCode(200).extract().path("qrCode");

        CompletableFuture.allOf(
                CompletableFuture.runAsync(() -> given().contentType(ContentType.JSON).body(Map.of("qrCode", alipayCode))
                        .post("/sandbox/alipay/buyer/pay").then().statusCode(200)),
                CompletableFuture.runAsync(() -> payWechat(wechatCode))).get();

        TestDb.awaitOrderStatus(orderId, "PAID", SETTLED);
        await().atMost(SETTLED).until(() -> "SUCCEEDED".equals(TestDb.scalar(
                "SELECT MAX(status) FROM refund WHERE order_id = ? AND cause = 'DUPLICATE_PAYMENT'", orderId)));
        String kept = TestDb.scalar("SELECT channel FROM payment WHERE order_id = ? AND accepted", orderId);
        String refunded = kept.equals("alipay") ? "wechat" : "alipay";
        assertEquals("REFUNDED 16.00", TestDb.scalar("SELECT CONCAT(status, ' ', refund_amount) FROM payment"
                + " WHERE order_id = ? AND channel = ?", orderId, refunded));
        assertEquals("PAID", TestDb.scalar("SELECT status FROM payment WHERE order_id = ? AND channel = ?",
                orderId, kept));
        if (refunded.equals("alipay")) {
            assertEquals(0, new BigDecimal("16.00").compareTo(alipayTrades.trade(no).orElseThrow().refundedAmount()));
        } else {
            assertEquals("REFUND", wechatTrades.trade(no + "W").orElseThrow().tradeState());
        }
        // Every later word of the wallets (queries, repeated notifies) finds the refund made: once.
        Thread.sleep(3000);
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
        assertEquals("PAID", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(3, 0), TestDb.sku(sku));
        assertEquals(1L, TestDb.count("SELECT COUNT(*) FROM order_event WHERE order_no = ? AND kind = 'PAID'"
                + " AND outcome = 'DUPLICATE'", no));
    }

    @Test
    void aLostWechatNotifyIsFoundByTheProbe() {
        wechatFaults.dropNotifies(true);
        String member = newMemberToken();
        int orderId = placeOrder(member, TestDb.newSku(5, "8.00"), 1);
        payWechat(request(member, orderId, "wechat").then().statusCode(200).extract().path("qrCode"));

        TestDb.awaitOrderStatus(orderId, "PAID", SETTLED);
        assertEquals("QUERY", TestDb.scalar("SELECT outcome FROM order_event WHERE order_no = ? AND kind = 'PAID'",
                orderNo(orderId)));
    }

    @Test
    void cancellingClosesEveryTradeAndTheWechatCodeCannotBePaidAfterwards() {
        String member = newMemberToken();
        int orderId = placeOrder(member, TestDb.newSku(5, "8.00"), 1);
        String no = orderNo(orderId);
        request(member, orderId, "alipay").then().statusCode(200);
        String wechatCode = request(member, orderId, "wechat").then().statusCode(200).extract().path("qrCode");

        as(member).post("/api/orders/" + orderId + "/cancel").then().statusCode(200).body("status", equalTo("CLOSED"));
        assertEquals("CLOSED", wechatTrades.trade(no + "W").orElseThrow().tradeState());
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, alipayTrades.trade(no).orElseThrow().status());
        given().contentType(ContentType.JSON).body(Map.of("codeUrl", wechatCode)).post("/sandbox/wechat/buyer/pay")
                .then().statusCode(org.hamcrest.Matchers.not(200));
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
    }

    @Test
    void anExpiredOrderHasItsWechatTradeClosed() {
        String member = newMemberToken();
        int orderId = placeOrder(member, TestDb.newSku(5, "8.00"), 1);
        request(member, orderId, "wechat").then().statusCode(200);

        TestDb.awaitOrderStatus(orderId, "CLOSED", SETTLED);
        assertEquals("CLOSED", wechatTrades.trade(orderNo(orderId) + "W").orElseThrow().tradeState());
    }

    @Test
    void aWechatPaymentForAClosedOrderIsRefundedThroughWechat() {
        String member = newMemberToken();
        long sku = TestDb.newSku(5, "8.00");
        int orderId = placeOrder(member, sku, 2);
        String outTradeNo = orderNo(orderId) + "W";
        // WeChat made the code, its answer never came back; then another instance closed the order without it.
        wechatFaults.arm("prepay", new WechatFaults.Fault(null, null, null, Duration.ofSeconds(5), false), 1);
        // 503 (no answer in time), or 409 when the time-out ended after the order's six seconds on a busy machine.
        request(member, orderId, "wechat").then().statusCode(anyOf(equalTo(503), equalTo(409)));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM payment WHERE order_id = ? AND qr_code IS NULL", orderId));
        AnotherInstance.closes(orderId, "EXPIRED");
        payWechat(wechatTrades.trade(outTradeNo).orElseThrow().codeUrl());

        await().atMost(SETTLED).until(() -> "SUCCEEDED".equals(TestDb.scalar(
                "SELECT MAX(status) FROM refund WHERE order_id = ? AND cause = 'LATE_PAYMENT'", orderId)));
        assertEquals(outTradeNo + "-refund", TestDb.scalar("SELECT out_request_no FROM refund WHERE order_id = ?",
                orderId));
        assertEquals("REFUNDED", TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", orderId));
        assertEquals("REFUND", wechatTrades.trade(outTradeNo).orElseThrow().tradeState());
        assertEquals("CLOSED", TestDb.orderStatus(orderId));
        assertNotEquals("PAID", TestDb.orderStatus(orderId));
        TestDb.assertStockInvariant(sku, 5);
    }

    private static Response request(String member, int orderId, String channel) {
        return as(member).contentType(ContentType.JSON).body(Map.of("channel", channel))
                .post("/api/orders/" + orderId + "/payment");
    }

    private static void payWechat(String codeUrl) {
        given().contentType(ContentType.JSON).body(Map.of("codeUrl", codeUrl)).post("/sandbox/wechat/buyer/pay")
                .then().statusCode(200);
    }
}
