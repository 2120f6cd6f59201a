package com.shop.orders.sandbox.alipay;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.internal.util.AlipaySignature;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SandboxNotifyTest extends SandboxFixture {

    @Test
    void paymentNotifyIsSignedAndRetriedUntilTheMerchantAnswersSuccess() throws Exception {
        try (NotifyReceiver merchant = new NotifyReceiver(1)) {
            String outTradeNo = SandboxClients.newOutTradeNo();
            String qrCode = SandboxClients.precreate(client, outTradeNo, "66.60", "", merchant.url()).getQrCode();
            pay(qrCode);

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> trades.trade(outTradeNo).orElseThrow().notifyAcknowledged());
            List<NotifyReceiver.Received> notifies = merchant.received();
            assertEquals(2, notifies.size());
            assertEquals(2, trades.notifiesSent(outTradeNo));
            // the first retry waits the first step of the compressed schedule (1s)
            assertTrue(notifies.get(1).atNanos() - notifies.get(0).atNanos() >= Duration.ofMillis(900).toNanos());

            for (NotifyReceiver.Received notify : notifies) {
                Map<String, String> fields = notify.fields();
                assertTrue(AlipaySignature.rsaCheckV1(new HashMap<>(fields), keys.alipayPublicKey(), "UTF-8", "RSA2"));
                assertFalse(AlipaySignature.rsaCheckV1(new HashMap<>(fields), keys.merchantPublicKey(), "UTF-8", "RSA2"));
                assertEquals("trade_status_sync", fields.get("notify_type"));
                assertEquals("TRADE_SUCCESS", fields.get("trade_status"));
                assertEquals(outTradeNo, fields.get("out_trade_no"));
                assertEquals(trades.trade(outTradeNo).orElseThrow().tradeNo(), fields.get("trade_no"));
                assertEquals("66.60", fields.get("total_amount"));
                assertEquals("66.60", fields.get("receipt_amount"));
                assertEquals("66.60", fields.get("buyer_pay_amount"));
                assertEquals(SandboxClients.APP_ID, fields.get("app_id"));
                assertEquals("沙箱测试商品 & co", fields.get("subject"));
                assertEquals("RSA2", fields.get("sign_type"));
                assertEquals("utf-8", fields.get("charset"));
                assertEquals("1.0", fields.get("version"));
                for (String field : List.of("notify_time", "notify_id", "buyer_id", "buyer_logon_id", "gmt_create", "gmt_payment")) {
                    assertFalse(fields.getOrDefault(field, "").isEmpty(), field);
                }
            }
            assertEquals(notifies.get(0).fields().get("notify_id"), notifies.get(1).fields().get("notify_id"));

            // acknowledged: no further attempt on the schedule
            await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(3))
                    .until(() -> merchant.received().size() == 2);
        }
    }

    @Test
    void droppedNotifiesAreNeverSent() throws Exception {
        try (NotifyReceiver merchant = new NotifyReceiver(0)) {
            faults.dropNotifies(true);
            String outTradeNo = SandboxClients.newOutTradeNo();
            pay(SandboxClients.precreate(client, outTradeNo, "7.00", "", merchant.url()).getQrCode());

            await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(2))
                    .until(() -> merchant.received().isEmpty());
            assertEquals(0, trades.notifiesSent(outTradeNo));
            assertEquals(SandboxTradeStatus.TRADE_SUCCESS, trades.trade(outTradeNo).orElseThrow().status());
        }
    }

    @Test
    void duplicatedNotifiesArriveTwicePerAttempt() throws Exception {
        try (NotifyReceiver merchant = new NotifyReceiver(0)) {
            given().contentType(ContentType.JSON).body(Map.of("duplicateNotifies", true)).put("/sandbox/alipay/faults")
                    .then().statusCode(200);
            assertTrue(faults.notifiesDuplicated());
            String outTradeNo = SandboxClients.newOutTradeNo();
            pay(SandboxClients.precreate(client, outTradeNo, "9.00", "", merchant.url()).getQrCode());

            await().atMost(Duration.ofSeconds(5)).until(() -> merchant.received().size() == 2);
            assertEquals(merchant.received().get(0).fields().get("notify_id"),
                    merchant.received().get(1).fields().get("notify_id"));
            await().atMost(Duration.ofSeconds(2)).until(() -> trades.trade(outTradeNo).orElseThrow().notifyAcknowledged());
        }
    }

    @Test
    void delayedNotifyArrivesAfterTheDelay() throws Exception {
        try (NotifyReceiver merchant = new NotifyReceiver(0)) {
            faults.delayNotifies(Duration.ofMillis(1200));
            String outTradeNo = SandboxClients.newOutTradeNo();
            String qrCode = SandboxClients.precreate(client, outTradeNo, "8.00", "", merchant.url()).getQrCode();
            long paidAt = System.nanoTime();
            pay(qrCode);

            await().atMost(Duration.ofSeconds(5)).until(() -> merchant.received().size() == 1);
            assertTrue(merchant.received().get(0).atNanos() - paidAt >= Duration.ofMillis(1100).toNanos());
            await().atMost(Duration.ofSeconds(2)).until(() -> trades.trade(outTradeNo).orElseThrow().notifyAcknowledged());
        }
    }

    private static void pay(String qrCode) {
        given().contentType(ContentType.JSON).body(Map.of("qrCode", qrCode))
                .post("/sandbox/alipay/buyer/pay").then().statusCode(200);
    }
}
