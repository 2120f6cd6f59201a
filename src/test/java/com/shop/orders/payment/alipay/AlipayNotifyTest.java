package com.shop.orders.payment.alipay;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.alipay.api.internal.util.AlipaySignature;
import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxKeys;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

/** Notifies posted directly, signed like Alipay's (or not), against real orders. */
@QuarkusTest
class AlipayNotifyTest {

    @Inject
    SandboxKeys keys;

    @Inject
    SandboxFaults faults;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void rejectsForgedWrongAppWrongAmountAndUnknownOrder() throws Exception {
        long sku = TestDb.newSku(5, "10.00");
        int orderId = placeOrder(newMemberToken(), sku, 1);
        String no = orderNo(orderId);

        assertEquals("failure", post(signed(paid(no, "10.00"), otherPrivateKey())));
        Map<String, String> wrongApp = paid(no, "10.00");
        wrongApp.put("app_id", "2021000000009999");
        assertEquals("failure", post(signed(wrongApp, keys.alipayPrivateKey())));
        assertEquals("failure", post(signed(paid(no, "1.00"), keys.alipayPrivateKey())));
        assertEquals("failure", post(signed(paid("20000101000000123456", "10.00"), keys.alipayPrivateKey())));
        Map<String, String> otherSeller = paid(no, "10.00");
        otherSeller.put("seller_id", "2088999999999999");
        assertEquals("failure", post(signed(otherSeller, keys.alipayPrivateKey())));
        Map<String, String> tampered = signed(paid(no, "10.00"), keys.alipayPrivateKey());
        tampered.put("trade_no", "someone-else");
        assertEquals("failure", post(tampered));

        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(5, 1), TestDb.sku(sku));
    }

    @Test
    void tenConcurrentCopiesOfOneNotifyMakeOneTransition() throws Exception {
        long sku = TestDb.newSku(5, "4.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 3);
        String no = orderNo(orderId);
        faults.dropNotifies(true);
        pay(requestQr(member, orderId));

        Map<String, String> notify = signed(paid(no, "12.00"), keys.alipayPrivateKey());
        List<String> answers = Concurrently.run(10, () -> post(notify));
        assertEquals(List.of("success"), answers.stream().distinct().toList());
        assertEquals("PAID", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(2, 0), TestDb.sku(sku));
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE message_key = ?", no));
        TestDb.assertStockInvariant(sku, 5);
        // A late duplicate is still acknowledged.
        assertEquals("success", post(notify));
    }

    private static String post(Map<String, String> params) {
        var request = given().contentType("application/x-www-form-urlencoded; charset=utf-8");
        params.forEach(request::formParam);
        return request.post("/api/payments/alipay/notify").then().statusCode(200).extract().asString();
    }

    private Map<String, String> paid(String orderNo, String amount) {
        Map<String, String> params = new HashMap<>();
        params.put("notify_time", "2026-11-29 12:00:00");
        params.put("notify_type", "trade_status_sync");
        params.put("notify_id", "n" + System.nanoTime());
        params.put("app_id", "2021000000000001");
        params.put("seller_id", "2088102100000099");
        params.put("charset", "utf-8");
        params.put("version", "1.0");
        params.put("trade_no", "2026112922001" + System.nanoTime());
        params.put("out_trade_no", orderNo);
        params.put("trade_status", "TRADE_SUCCESS");
        params.put("total_amount", amount);
        params.put("receipt_amount", amount);
        return params;
    }

    private static Map<String, String> signed(Map<String, String> params, String privateKey) throws Exception {
        Map<String, String> copy = new HashMap<>(params);
        copy.put("sign_type", "RSA2");
        String content = AlipaySignature.getSignCheckContentV1(new HashMap<>(copy));
        copy.put("sign", AlipaySignature.rsaSign(content, privateKey, "UTF-8", "RSA2"));
        return copy;
    }

    private static String otherPrivateKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return Base64.getEncoder().encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
    }
}
