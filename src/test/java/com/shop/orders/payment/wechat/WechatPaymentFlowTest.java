package com.shop.orders.payment.wechat;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.wechat.WechatFaults;
import com.shop.orders.sandbox.wechat.WechatNotifies;
import com.shop.orders.sandbox.wechat.WechatSandboxKeys;
import com.shop.orders.sandbox.wechat.WechatTradeView;
import com.shop.orders.sandbox.wechat.WechatTrades;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.Payments;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * An order paid with WeChat Pay through the payment core: its trade made by POST /api/orders/{id}/payment
 * {"channel":"wechat"} (out_trade_no: the order number and W), paid at the sandbox, and learnt from the notify, from
 * replayed copies of it (recorded once), or from the watch's query when the notify is lost; a notify of another amount
 * changes nothing. Needs the core that offers channels by name and finds an order by its trade's number.
 */
@QuarkusTest
class WechatPaymentFlowTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

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
    void anOrderPaidWithWechatIsPaidByTheNotify() {
        given().get("/api/payment-channels").then().statusCode(200).body("channels", equalTo(List.of("alipay", "wechat")));
        long sku = TestDb.newSku(10, "19.99");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 2);
        String codeUrl = requestWechat(member, orderId);
        WechatTradeView trade = trades.trade(orderNo(orderId) + "W").orElseThrow();
        assertEquals(3998, trade.total());
        assertEquals(codeUrl, trade.codeUrl());

        buyer("pay", codeUrl);
        TestDb.awaitOrderStatus(orderId, "PAID", WAIT);
        assertEquals(new TestDb.SkuRow(8, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
        await().atMost(WAIT).until(() -> trades.trade(trade.outTradeNo()).orElseThrow().notifyAcknowledged());
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE message_key = ?", orderNo(orderId)));
    }

    @Test
    void copiesOfOneNotifyMakeOnePayment() throws Exception {
        faults.dropNotifies(true);
        long sku = TestDb.newSku(5, "4.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 3);
        buyer("pay", requestWechat(member, orderId));
        String notify = paidNotify(orderId, 1200);

        List<Integer> answers = Concurrently.run(5, () -> post(notify));
        assertEquals(List.of(204), answers.stream().distinct().toList());
        assertEquals(204, post(notify));
        assertEquals("PAID", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(2, 0), TestDb.sku(sku));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE message_key = ?", orderNo(orderId)));
    }

    @Test
    void aNotifyOfAnotherAmountChangesNothing() {
        faults.dropNotifies(true);
        long sku = TestDb.newSku(5, "10.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        buyer("scan", requestWechat(member, orderId));

        assertEquals(400, post(paidNotify(orderId, 1)));
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(5, 1), TestDb.sku(sku));
    }

    @Test
    void aPaymentWhoseNotifyIsLostIsFoundByTheQuery() {
        faults.dropNotifies(true);
        long sku = TestDb.newSku(5, "6.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        buyer("pay", requestWechat(member, orderId));
        TestDb.awaitOrderStatus(orderId, "PAID", WAIT);
        assertEquals(0, trades.trade(orderNo(orderId) + "W").orElseThrow().notifyAttempts());
    }

    private static String requestWechat(String member, int orderId) {
        String codeUrl = Payments.requestQr(member, orderId, "wechat");
        assertTrue(codeUrl.startsWith("weixin://wxpay/bizpayurl?pr="), codeUrl);
        return codeUrl;
    }

    /** The notify WeChat sends for the order's trade once paid, saying {@code fen} were paid. */
    private String paidNotify(int orderId, int fen) {
        WechatTradeView trade = trades.trade(orderNo(orderId) + "W").orElseThrow();
        String transactionId = trade.transactionId() != null ? trade.transactionId() : "4200009999202606010000000001";
        return WechatNotifies.envelope("TRANSACTION.SUCCESS", keys.apiV3Key(), WechatNotifyTest.transaction(
                "1900000001", "wxd678efh567hg6787", trade.outTradeNo(), transactionId, "SUCCESS", fen));
    }

    private int post(String body) {
        var request = given().contentType(ContentType.JSON).body(body);
        WechatNotifies.signed(keys, body).forEach(request::header);
        return request.post(WechatNotifyResource.PATH).then().extract().statusCode();
    }

    private static void buyer(String action, String codeUrl) {
        given().contentType(ContentType.JSON).body(Map.of("codeUrl", codeUrl)).post("/sandbox/wechat/buyer/" + action)
                .then().statusCode(200);
    }
}
