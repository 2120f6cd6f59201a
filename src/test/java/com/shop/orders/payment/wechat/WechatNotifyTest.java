package com.shop.orders.payment.wechat;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.wechat.WechatNotifies;
import com.shop.orders.sandbox.wechat.WechatSandboxKeys;
import com.shop.orders.sandbox.wechat.WechatSigning;
import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.TestDb;
import com.shop.orders.web.Problem;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;

/**
 * The notify endpoint against what it must not believe or cannot use, posted as WeChat would (signed with the
 * sandbox's platform key, or not): every one answered 4xx with WeChat's {"code":"FAIL","message"} and nothing
 * recorded for the order. Notifies that pay an order: WechatPaymentFlowTest.
 */
@QuarkusTest
class WechatNotifyTest {

    private static final String MCHID = "1900000001";
    private static final String APPID = "wxd678efh567hg6787";
    private static final String PAYMENT = "TRANSACTION.SUCCESS";

    @Inject
    WechatSandboxKeys keys;

    @Test
    void forgedReSerialedTamperedAndUnsignedNotifiesAreNotVerified() {
        Order order = pendingOrder();
        String body = envelope(transaction(MCHID, APPID, order.outTradeNo(), "SUCCESS", 1000));
        double rejected = rejectedFor("signature");

        post(body, WechatNotifies.forged(keys, body)).statusCode(401);
        // Signed by WeChat's key, named by a serial that is not its key's ID.
        post(body, WechatNotifies.signed(keys, body, "PUB_KEY_ID_0114232603812345678901234567890")).statusCode(401);
        // The ciphertext changed after WeChat signed the body.
        String tampered = body.replaceFirst("\"ciphertext\":\"(.)", "\"ciphertext\":\"" + otherThan(body));
        post(tampered, WechatNotifies.signed(keys, body)).statusCode(401);
        Map<String, String> unsigned = new HashMap<>(WechatNotifies.signed(keys, body));
        unsigned.remove("Wechatpay-Signature");
        post(body, unsigned).statusCode(401).body("message", equalTo(
                "Wechatpay-Signature, -Timestamp, -Nonce or -Serial missing"));

        assertTrue(rejectedFor("signature") >= rejected + 3, "rejected notifies counted by reason");
        order.assertUnpaid();
    }

    @Test
    void verifiedNotifiesForAnotherMerchantOrAppOrUnreadableAreRefused() {
        Order order = pendingOrder();
        postSigned(envelope(transaction("1900009999", APPID, order.outTradeNo(), "SUCCESS", 1000))).statusCode(400)
                .body("message", equalTo("not this merchant's notify"));
        postSigned(envelope(transaction(MCHID, "wx0000000000000000", order.outTradeNo(), "SUCCESS", 1000)))
                .statusCode(400).body("message", equalTo("not this app's notify"));
        // Signed by WeChat, encrypted under another APIv3 key (or tampered with before signing).
        postSigned(WechatNotifies.envelope(PAYMENT, WechatSigning.nonce(32),
                transaction(MCHID, APPID, order.outTradeNo(), "SUCCESS", 1000))).statusCode(400)
                .body("message", equalTo("resource not decryptable"));
        postSigned("{\"id\":\"EV-1\",\"event_type\":").statusCode(400).body("message", equalTo("malformed notify"));
        postSigned("{\"id\":\"EV-1\",\"event_type\":\"TRANSACTION.SUCCESS\"}").statusCode(400)
                .body("message", equalTo("malformed notify"));
        postSigned(envelope("{\"mchid\":\"" + MCHID + "\",\"appid\":\"" + APPID + "\",\"trade_state\":\"SUCCESS\"}"))
                .statusCode(400).body("message", equalTo("transaction unreadable"));
        order.assertUnpaid();
    }

    @Test
    void aPaymentOfNoTradeOfOursIsRefused() {
        String outTradeNo = WechatChannelTest.orderNo() + "W";
        postSigned(envelope(transaction(MCHID, APPID, outTradeNo, "SUCCESS", 1000))).statusCode(400)
                .body("message", equalTo("no such trade"));
    }

    @Test
    void verifiedNotifiesOfNoPaymentAreHandledAndChangeNothing() {
        Order order = pendingOrder();
        String notPaid = envelope(transaction(MCHID, APPID, order.outTradeNo(), "NOTPAY", 1000));
        post(notPaid, WechatNotifies.signed(keys, notPaid)).statusCode(204);
        String refund = WechatNotifies.envelope("REFUND.SUCCESS", keys.apiV3Key(),
                transaction(MCHID, APPID, order.outTradeNo(), "SUCCESS", 1000));
        post(refund, WechatNotifies.signed(keys, refund)).statusCode(204);
        order.assertUnpaid();
    }

    @Test
    void aRefusalIsWechatsFailAnswerAsAProblemWithoutInternals() {
        String body = "{\"not\":\"a notify\"}";
        String answer = post(body, WechatNotifies.forged(keys, body)).statusCode(401)
                .contentType(Problem.MEDIA_TYPE)
                .body("code", equalTo("FAIL"))
                .body("message", equalTo("signature not verified"))
                .body("status", equalTo(401))
                .body(not(containsString("Exception")))
                .extract().asString();
        assertTrue(answer.length() < 300, answer);
        // Not JSON at all: the framework's 415, still a problem.
        given().contentType("text/plain").body("x").post(WechatNotifyResource.PATH).then().statusCode(415);
    }

    private record Order(int id, String outTradeNo) {

        void assertUnpaid() {
            assertEquals("PENDING_PAYMENT", TestDb.orderStatus(id));
            assertEquals(0, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE message_key = ?",
                    outTradeNo.substring(0, outTradeNo.length() - 1)));
        }
    }

    /** An order of 10.00 that waits for its payment; its WeChat trade number as the channel makes it. */
    private static Order pendingOrder() {
        long sku = TestDb.newSku(5, "10.00");
        int id = placeOrder(newMemberToken(), sku, 1);
        return new Order(id, orderNo(id) + "W");
    }

    private String envelope(String transaction) {
        return WechatNotifies.envelope(PAYMENT, keys.apiV3Key(), transaction);
    }

    private ValidatableResponse postSigned(String body) {
        return post(body, WechatNotifies.signed(keys, body));
    }

    private static ValidatableResponse post(String body, Map<String, String> headers) {
        var request = given().contentType("application/json").body(body);
        headers.forEach(request::header);
        return request.post(WechatNotifyResource.PATH).then();
    }

    private static double rejectedFor(String reason) {
        return Metrics.value("payments_notify_total{channel=\"wechat\",reason=\"" + reason + "\",result=\"rejected\"}");
    }

    /** A character of Base64 that is not the ciphertext's first, so that replacing it changes the body. */
    private static String otherThan(String body) {
        int at = body.indexOf("\"ciphertext\":\"") + "\"ciphertext\":\"".length();
        return body.charAt(at) == 'A' ? "B" : "A";
    }

    static String transaction(String mchid, String appid, String outTradeNo, String tradeState, int fen) {
        return transaction(mchid, appid, outTradeNo, "4200001234202606011234567890", tradeState, fen);
    }

    /** A transaction as WeChat's notify resource and query answer carry it. */
    static String transaction(String mchid, String appid, String outTradeNo, String transactionId, String tradeState,
            int fen) {
        return "{\"appid\":\"" + appid + "\",\"mchid\":\"" + mchid + "\",\"out_trade_no\":\"" + outTradeNo
                + "\",\"transaction_id\":\"" + transactionId + "\",\"trade_type\":\"NATIVE\",\"trade_state\":\""
                + tradeState + "\",\"trade_state_desc\":\"支付成功\",\"bank_type\":\"OTHERS\",\"attach\":\"\","
                + "\"success_time\":\"2026-06-01T16:03:05+08:00\",\"payer\":{\"openid\":\"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o\"},"
                + "\"amount\":{\"total\":" + fen + ",\"payer_total\":" + fen + ",\"currency\":\"CNY\","
                + "\"payer_currency\":\"CNY\"}}";
    }
}
