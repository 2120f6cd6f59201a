package com.shop.orders.payment;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.alipay.MethodFault;
import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxTradeStatus;
import com.shop.orders.sandbox.alipay.SandboxTrades;
import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.TestDb;

import io.restassured.http.ContentType;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class PaymentFlowTest {

    @Inject
    SandboxFaults faults;

    @Inject
    SandboxTrades trades;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void scanAndPayMarksThePaidAndDeductsStock() {
        long sku = TestDb.newSku(10, "19.99");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 2);

        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .body("qrCode", startsWith("https://qr.alipay.com/"))
                .body("qrImageUrl", notNullValue())
                .body("expiresAt", notNullValue());
        String qr = requestQr(member, orderId);
        pay(qr);

        await().atMost(Duration.ofSeconds(10)).until(() -> "PAID".equals(TestDb.orderStatus(orderId)));
        assertEquals(new TestDb.SkuRow(8, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
        String no = orderNo(orderId);
        assertEquals("PAID", TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", orderId));
        assertEquals(new BigDecimal("39.98"), TestDb.scalar("SELECT paid_amount FROM payment WHERE order_id = ?", orderId));
        // The "order paid" event leaves the outbox for RocketMQ.
        await().atMost(Duration.ofSeconds(15)).until(() -> TestDb.count(
                "SELECT COUNT(*) FROM outbox_event WHERE message_key = ? AND published_at IS NOT NULL", no) == 1);
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(409);
    }

    /**
     * The channel is named in the body, or not at all (the storefront of before channels): both are Alipay's one
     * trade. A channel the shop does not offer is a 400 that leaves the order as it was, no trade at any wallet.
     */
    @Test
    void thePaymentNamesItsChannelAndAChannelTheShopDoesNotOfferIsRefused() {
        given().get("/api/payment-channels").then().statusCode(200).body("channels", equalTo(List.of("alipay", "wechat")));
        long sku = TestDb.newSku(5, "3.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);

        for (String refused : new String[] { "{\"channel\":\"unionpay\"}", "{\"channel\":\"ALIPAY\"}",
                "{\"channel\":\"\"}" }) {
            as(member).contentType(ContentType.JSON).body(refused).post("/api/orders/" + orderId + "/payment").then()
                    .statusCode(400).contentType("application/problem+json")
                    .body("title", equalTo("Unknown payment channel")).body("channels", equalTo(List.of("alipay", "wechat")));
        }
        as(member).contentType(ContentType.JSON).body("{\"channel\":").post("/api/orders/" + orderId + "/payment")
                .then().statusCode(400);
        as(member).contentType(ContentType.TEXT).body("alipay").post("/api/orders/" + orderId + "/payment").then()
                .statusCode(415).contentType("application/problem+json");
        as(member).contentType(ContentType.JSON).body("{\"channel\":1}")
                .post("/api/orders/" + orderId + "/payment").then().statusCode(400);
        assertEquals(0, trades.calls("alipay.trade.precreate", orderNo(orderId)));
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM payment WHERE order_id = ?", orderId));

        String named = as(member).contentType(ContentType.JSON).body("{\"channel\":\"alipay\"}")
                .post("/api/orders/" + orderId + "/payment").then().statusCode(200).body("channel", equalTo("alipay"))
                .extract().path("qrCode");
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .body("channel", equalTo("alipay")).body("qrCode", equalTo(named));
        as(member).contentType(ContentType.JSON).body("{}").post("/api/orders/" + orderId + "/payment").then()
                .statusCode(200).body("qrCode", equalTo(named));
        assertEquals(1, trades.calls("alipay.trade.precreate", orderNo(orderId)));
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
    }

    @Test
    void qrImageIsServedToItsOwnerAndThroughTheSignedLinkOnly() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String owner = newMemberToken();
        String other = newMemberToken();
        int orderId = placeOrder(owner, sku, 1);
        Map<String, String> payment = as(owner).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().as(Map.class);

        byte[] png = as(owner).get("/api/orders/" + orderId + "/payment/qr.png").then().statusCode(200)
                .contentType("image/png").extract().asByteArray();
        assertEquals(payment.get("qrCode"), QrImages.decode(png));
        byte[] viaLink = given().get(payment.get("qrImageUrl")).then().statusCode(200).extract().asByteArray();
        assertEquals(payment.get("qrCode"), QrImages.decode(viaLink));

        as(other).get("/api/orders/" + orderId + "/payment/qr.png").then().statusCode(404);
        as(other).post("/api/orders/" + orderId + "/payment").then().statusCode(404);
        given().get("/api/orders/" + orderId + "/payment/qr.png").then().statusCode(401);
        given().get(payment.get("qrImageUrl").replace("sig=", "sig=x")).then().statusCode(404);
        given().get(payment.get("qrImageUrl").replace("/qr-images/" + orderId, "/qr-images/" + (orderId + 1)))
                .then().statusCode(404);
    }

    @Test
    void requestingTheQrAgainReusesItAndKeepsTheDeadline() {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        Object deadline = TestDb.scalar("SELECT pay_deadline FROM orders WHERE id = ?", orderId);

        String first = requestQr(member, orderId);
        for (int i = 0; i < 4; i++) {
            assertEquals(first, requestQr(member, orderId));
        }
        assertEquals(1, trades.calls("alipay.trade.precreate", orderNo(orderId)));
        assertEquals(deadline, TestDb.scalar("SELECT pay_deadline FROM orders WHERE id = ?", orderId));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM payment WHERE order_id = ?", orderId));
    }

    @Test
    void alipayErrorsAnswerBadGatewayAndChangeNothing() {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);

        faults.fail("alipay.trade.precreate", MethodFault.alipayError("40004", "Business Failed", "ACQ.INVALID_PARAMETER", "bad"));
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(502)
                .contentType("application/problem+json");
        faults.fail("alipay.trade.precreate", MethodFault.httpStatus(500));
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(503)
                .contentType("application/problem+json");
        // Alipay's "busy, call again": an outage (503), not a refusal.
        faults.fail("alipay.trade.precreate", MethodFault.systemError());
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(503)
                .contentType("application/problem+json").body("providerCode", equalTo("ACQ.SYSTEM_ERROR"));
        faults.fail("alipay.trade.precreate", MethodFault.noAnswerFor(Duration.ofSeconds(5)));
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(503)
                .contentType("application/problem+json");

        // The trade is recorded before Alipay is asked (a payment on it must find its order); no code was offered.
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM payment WHERE order_id = ? AND qr_code IS NOT NULL", orderId));
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        faults.reset();
        assertNotNull(requestQr(member, orderId));
    }

    /**
     * The trade is recorded before Alipay is asked; Alipay refused the precreate (as it refuses a time_expire no longer
     * in the future), so it knows no QR code under the number, and its cancel answers ACQ.TRADE_NOT_EXIST: the order
     * closes all the same (it used to be retried forever, the order left pending).
     */
    @Test
    void anOrderWhoseQrCodeAlipayNeverPrecreatedIsClosed() {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        faults.fail("alipay.trade.precreate", MethodFault.alipayError("40004", "Business Failed",
                "ACQ.INVALID_PARAMETER", "time_expire is not in the future"));
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(502);
        faults.reset();

        as(member).post("/api/orders/" + orderId + "/cancel").then().statusCode(200).body("status", equalTo("CLOSED"));
        assertEquals(1, trades.calls("alipay.trade.cancel", orderNo(orderId)));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    @Test
    void aQrCodeRequestAnsweredOnlyAfterTheDeadlineIsAWindowOverNotAnOutage() {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        Instant deadline = Instant.parse(as(member).get("/api/orders/" + orderId).then().statusCode(200)
                .extract().path("payDeadline"));

        // Still payable when asked; Alipay's answer would come only after the deadline (the read timeout is 3 s).
        await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(deadline.minusSeconds(2)));
        faults.fail("alipay.trade.precreate", MethodFault.noAnswerFor(Duration.ofSeconds(5)));
        as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(409)
                .contentType("application/problem+json").body("title", equalTo("Payment window over"));
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM payment WHERE order_id = ? AND qr_code IS NOT NULL", orderId));
    }

    @Test
    void cancelledOrdersQrCodeCanNoLongerBePaid() {
        long sku = TestDb.newSku(5, "8.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        String qr = requestQr(member, orderId);

        // Not scanned yet: Alipay has no trade to close, so the cancel voids the QR code itself.
        as(member).post("/api/orders/" + orderId + "/cancel").then().statusCode(200).body("status", equalTo("CLOSED"));
        given().contentType("application/json").body(Map.of("qrCode", qr)).post("/sandbox/alipay/buyer/pay")
                .then().statusCode(409);
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, trades.trade(orderNo(orderId)).orElseThrow().status());
        assertEquals(1, trades.calls("alipay.trade.cancel", orderNo(orderId)));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    @Test
    void paymentThatArrivesForAClosedOrderIsRefunded() {
        long sku = TestDb.newSku(5, "8.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 2);
        String qr = requestQr(member, orderId);
        // The race at the deadline: the order was closed a moment before Alipay took the money.
        AnotherInstance.closes(orderId, "EXPIRED");
        pay(qr);

        String no = orderNo(orderId);
        await().atMost(Duration.ofSeconds(10)).until(() -> "REFUNDED".equals(
                TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", orderId)));
        assertEquals("CLOSED", TestDb.orderStatus(orderId));
        assertEquals(0, new BigDecimal("16.00").compareTo(trades.trade(no).orElseThrow().refundedAmount()));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
    }
}
