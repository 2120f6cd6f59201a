package com.shop.orders.sandbox.wechat;

import static com.shop.orders.sandbox.wechat.WechatRequests.buyer;
import static com.shop.orders.sandbox.wechat.WechatRequests.close;
import static com.shop.orders.sandbox.wechat.WechatRequests.outTradeNo;
import static com.shop.orders.sandbox.wechat.WechatRequests.prepay;
import static com.shop.orders.sandbox.wechat.WechatRequests.query;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.KeyPairs;
import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayRequest;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * The WeChat Pay sandbox as the official SDK (wechatpay-java) meets it: prepay, query and close signed both ways
 * (a 204 included), the buyer's scan and pay, notifies the SDK's parser verifies and decrypts, retried and
 * duplicated, and the fault knobs: errors before and after the effect, a skewed timestamp, a wrong serial.
 */
@QuarkusTest
class WechatSandboxTest {

    @Inject
    WechatSandboxKeys keys;

    @Inject
    WechatFaults faults;

    @Inject
    WechatTrades trades;

    @Inject
    WechatSandboxConfig config;

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void aTradeIsPrepaidPaidAndNotifiedAsTheSdkExpects() throws Exception {
        RSAPublicKeyConfig sdk = WechatSandboxClients.config(keys, config.mchid());
        NativePayService wechat = WechatSandboxClients.nativePay(sdk, port, Duration.ofSeconds(10));
        try (WechatNotifyReceiver<Transaction> receiver = new WechatNotifyReceiver<>(
                WechatSandboxClients.notificationParser(sdk), Transaction.class, 1)) {
            String no = outTradeNo();
            String codeUrl = wechat.prepay(prepay(no, 1250, receiver.url())).getCodeUrl();
            assertTrue(codeUrl.startsWith("weixin://wxpay/bizpayurl?pr="), codeUrl);
            // Asked again with the same parameters: the same code; with others: WeChat's "duplicate order number".
            assertEquals(codeUrl, wechat.prepay(prepay(no, 1250, receiver.url())).getCodeUrl());
            ServiceException duplicate = assertThrows(ServiceException.class,
                    () -> wechat.prepay(prepay(no, 1300, receiver.url())));
            assertEquals(400, duplicate.getHttpStatusCode());
            assertEquals("INVALID_REQUEST", duplicate.getErrorCode());
            assertEquals(Transaction.TradeStateEnum.NOTPAY, query(wechat, no).getTradeState());

            buyer("scan", codeUrl).statusCode(200).body("tradeState", equalTo("NOTPAY"));
            buyer("pay", codeUrl).statusCode(200).body("tradeState", equalTo("SUCCESS"));
            buyer("pay", codeUrl).statusCode(409).body("error", equalTo("already paid"));

            Transaction paid = query(wechat, no);
            assertEquals(Transaction.TradeStateEnum.SUCCESS, paid.getTradeState());
            assertEquals(1250, paid.getAmount().getTotal());
            assertEquals(1250, paid.getAmount().getPayerTotal());
            assertNotNull(paid.getTransactionId());
            assertNotNull(OffsetDateTime.parse(paid.getSuccessTime()));
            // The first attempt is answered 500: WeChat tries again, and the second one is acknowledged.
            await().atMost(Duration.ofSeconds(15)).until(() -> receiver.received().size() >= 2
                    && trades.trade(no).orElseThrow().notifyAcknowledged());
            Transaction notified = receiver.received().get(0);
            assertEquals(no, notified.getOutTradeNo());
            assertEquals(config.mchid(), notified.getMchid());
            assertEquals(config.appid(), notified.getAppid());
            assertEquals(paid.getTransactionId(), notified.getTransactionId());
            assertEquals(1250, notified.getAmount().getTotal());
            assertEquals(Transaction.TradeStateEnum.SUCCESS, notified.getTradeState());
            assertEquals(java.util.List.of(), receiver.refused());
        }
    }

    @Test
    void aClosedTradeCannotBePaidAndAPaidOneCannotBeClosed() {
        NativePayService wechat = WechatSandboxClients.nativePay(WechatSandboxClients.config(keys, config.mchid()),
                port, Duration.ofSeconds(10));
        String open = outTradeNo();
        String codeUrl = wechat.prepay(prepay(open, 500, "https://shop.example/notify")).getCodeUrl();
        // 204, signed: the SDK verifies an empty answer too.
        wechat.closeOrder(close(open));
        wechat.closeOrder(close(open));
        wechat.closeOrder(close(outTradeNo()));
        assertEquals(Transaction.TradeStateEnum.CLOSED, query(wechat, open).getTradeState());
        buyer("pay", codeUrl).statusCode(409).body("error", equalTo("the trade is closed"));
        ServiceException reopened = assertThrows(ServiceException.class,
                () -> wechat.prepay(prepay(open, 500, "https://shop.example/notify")));
        assertEquals("ORDER_CLOSED", reopened.getErrorCode());

        String paid = outTradeNo();
        buyer("pay", wechat.prepay(prepay(paid, 500, "https://shop.example/notify")).getCodeUrl()).statusCode(200);
        ServiceException closePaid = assertThrows(ServiceException.class, () -> wechat.closeOrder(close(paid)));
        assertEquals("ORDERPAID", closePaid.getErrorCode());
        assertEquals(Transaction.TradeStateEnum.SUCCESS, query(wechat, paid).getTradeState());

        ServiceException unknown = assertThrows(ServiceException.class, () -> query(wechat, outTradeNo()));
        assertEquals(404, unknown.getHttpStatusCode());
        assertEquals("ORDER_NOT_EXIST", unknown.getErrorCode());
    }

    @Test
    void requestsNotSignedByTheMerchantAndBadParametersAreRefused() {
        RSAPublicKeyConfig stranger = new RSAPublicKeyConfig.Builder().merchantId(config.mchid())
                .privateKey(KeyPairs.newRsaPair().getPrivate()).merchantSerialNumber(keys.merchantSerial())
                .publicKey(keys.platformPublicKeyPem()).publicKeyId(keys.publicKeyId()).apiV3Key(keys.apiV3Key())
                .build();
        String no = outTradeNo();
        ServiceException unsigned = assertThrows(ServiceException.class, () -> WechatSandboxClients
                .nativePay(stranger, port, Duration.ofSeconds(10)).prepay(prepay(no, 100, "https://shop.example/n")));
        assertEquals(401, unsigned.getHttpStatusCode());
        assertEquals("SIGN_ERROR", unsigned.getErrorCode());
        assertTrue(trades.trade(no).isEmpty());

        NativePayService wechat = WechatSandboxClients.nativePay(WechatSandboxClients.config(keys, config.mchid()),
                port, Duration.ofSeconds(10));
        for (PrepayRequest bad : new PrepayRequest[] { prepay("abc", 100, "https://shop.example/n"),
                prepay(outTradeNo(), 0, "https://shop.example/n"), prepay(outTradeNo(), 100, "https://shop.example/n?x=1"),
                prepay(outTradeNo() + "#", 100, "https://shop.example/n") }) {
            ServiceException refused = assertThrows(ServiceException.class, () -> wechat.prepay(bad));
            assertEquals("PARAM_ERROR", refused.getErrorCode(), refused.getResponseBody());
            assertTrue(trades.trade(bad.getOutTradeNo()).isEmpty());
        }
    }

    @Test
    void faultsComeBeforeOrAfterTheEffectAndAnswersTheSdkMustRefuse() {
        NativePayService wechat = WechatSandboxClients.nativePay(WechatSandboxClients.config(keys, config.mchid()),
                port, Duration.ofSeconds(2));
        String notified = "https://shop.example/notify";
        String before = outTradeNo();
        faults.arm(WechatGateway.PREPAY, new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统错误", null, false), 1);
        assertEquals("SYSTEM_ERROR", assertThrows(ServiceException.class,
                () -> wechat.prepay(prepay(before, 100, notified))).getErrorCode());
        assertTrue(trades.trade(before).isEmpty());
        assertNotNull(wechat.prepay(prepay(before, 100, notified)).getCodeUrl());

        String after = outTradeNo();
        faults.arm(WechatGateway.PREPAY, new WechatFaults.Fault(502, "SERVICE_UNAVAILABLE", "x", null, true), 1);
        assertThrows(ServiceException.class, () -> wechat.prepay(prepay(after, 100, notified)));
        assertEquals("NOTPAY", trades.trade(after).orElseThrow().tradeState());

        // Held past the client's read timeout, after the close took effect: the SDK cannot tell, WeChat closed it.
        faults.arm(WechatGateway.CLOSE, new WechatFaults.Fault(null, null, null, Duration.ofSeconds(3), true), 1);
        assertThrows(RuntimeException.class, () -> wechat.closeOrder(close(after)));
        assertEquals("CLOSED", trades.trade(after).orElseThrow().tradeState());

        faults.skewTimestamps(Duration.ofSeconds(301));
        assertThrows(IllegalArgumentException.class, () -> query(wechat, before));
        faults.skewTimestamps(Duration.ofSeconds(-299));
        assertEquals(Transaction.TradeStateEnum.NOTPAY, query(wechat, before).getTradeState());
        faults.skewTimestamps(Duration.ZERO);
        faults.wrongSerial(true);
        assertThrows(ValidationException.class, () -> query(wechat, before));
        assertEquals(3, trades.calls(WechatGateway.QUERY, before));
    }

    @Test
    void notifiesCanBeDuplicatedOrLost() throws Exception {
        RSAPublicKeyConfig sdk = WechatSandboxClients.config(keys, config.mchid());
        NativePayService wechat = WechatSandboxClients.nativePay(sdk, port, Duration.ofSeconds(10));
        try (WechatNotifyReceiver<Transaction> receiver = new WechatNotifyReceiver<>(
                WechatSandboxClients.notificationParser(sdk), Transaction.class, 0)) {
            faults.duplicateNotifies(true);
            String twice = outTradeNo();
            buyer("pay", wechat.prepay(prepay(twice, 200, receiver.url())).getCodeUrl()).statusCode(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 2);
            assertEquals(twice, receiver.received().get(1).getOutTradeNo());

            faults.duplicateNotifies(false);
            faults.dropNotifies(true);
            String lost = outTradeNo();
            buyer("pay", wechat.prepay(prepay(lost, 200, receiver.url())).getCodeUrl()).statusCode(200);
            Thread.sleep(1500);
            assertEquals(2, receiver.received().size());
            assertEquals(0, trades.trade(lost).orElseThrow().notifyAttempts());
        }
    }

    @Test
    void theFaultKnobsOverHttpChangeAllOrNothing() {
        given().contentType(ContentType.JSON).body(Map.of("dropNotifies", true, "methods",
                Map.of("query", Map.of("httpStatus", 429, "times", 2)))).put("/sandbox/wechat/faults").then()
                .statusCode(200).body("dropNotifies", equalTo(true))
                .body("methods.query.code", equalTo("FREQUENCY_LIMITED")).body("methods.query.times", equalTo(2));
        given().contentType(ContentType.JSON).body(Map.of("latency", "5s", "methods",
                Map.of("reverse", Map.of("httpStatus", 500)))).put("/sandbox/wechat/faults").then()
                .statusCode(400).body("error", containsString("unknown method reverse"));
        // As in the Alipay sandbox: a held answer always comes after the effect.
        given().contentType(ContentType.JSON).body(Map.of("methods", Map.of("close", Map.of("noAnswerFor", "5s",
                "afterEffect", true)))).put("/sandbox/wechat/faults").then().statusCode(400)
                .body("error", containsString("after the effect"));
        given().get("/sandbox/wechat/faults").then().statusCode(200).body("latency", equalTo("PT0S"))
                .body("methods.query.times", equalTo(2));
        given().delete("/sandbox/wechat/faults").then().statusCode(200).body("dropNotifies", equalTo(false));
    }

    @Test
    void aFaultForAnyApiOrForOneTradeAsInTheAlipaySandbox() {
        NativePayService wechat = WechatSandboxClients.nativePay(WechatSandboxClients.config(keys, config.mchid()),
                port, Duration.ofSeconds(10));
        String one = outTradeNo();
        String other = outTradeNo();
        wechat.prepay(prepay(one, 100, "https://shop.example/notify"));
        wechat.prepay(prepay(other, 100, "https://shop.example/notify"));
        faults.armFor(one, WechatGateway.QUERY, new WechatFaults.Fault(503, "SERVICE_UNAVAILABLE", "x", null, false), 1);
        assertEquals(503, assertThrows(ServiceException.class, () -> query(wechat, one)).getHttpStatusCode());
        assertEquals(Transaction.TradeStateEnum.NOTPAY, query(wechat, other).getTradeState());
        assertEquals(Transaction.TradeStateEnum.NOTPAY, query(wechat, one).getTradeState());

        given().contentType(ContentType.JSON).body(Map.of("methods", Map.of("*", Map.of("httpStatus", 500, "times", 2))))
                .put("/sandbox/wechat/faults").then().statusCode(200).body("methods.'*'.code", equalTo("SYSTEM_ERROR"));
        assertEquals("SYSTEM_ERROR", assertThrows(ServiceException.class, () -> wechat.closeOrder(close(one)))
                .getErrorCode());
        assertEquals("SYSTEM_ERROR", assertThrows(ServiceException.class, () -> query(wechat, other))
                .getErrorCode());
        assertEquals(Transaction.TradeStateEnum.NOTPAY, query(wechat, one).getTradeState());
    }

    @Test
    void thePagesLinkEachOtherAndTheBuyerPastesACode() {
        NativePayService wechat = WechatSandboxClients.nativePay(WechatSandboxClients.config(keys, config.mchid()),
                port, Duration.ofSeconds(10));
        String no = outTradeNo();
        String codeUrl = wechat.prepay(prepay(no, 990, "https://shop.example/notify")).getCodeUrl();
        given().get("/sandbox/wechat").then().statusCode(200).body(containsString("WeChat Pay sandbox"))
                .body(containsString("href=\"/sandbox/alipay\">Alipay trades"))
                .body(containsString("<input id=\"code\"")).body(containsString(no))
                .body(containsString(keys.platformCertificateSerial()));
        given().get("/sandbox/alipay").then().statusCode(200)
                .body(containsString("href=\"/sandbox/wechat\">WeChat Pay trades"));
        // WeChat's own name for the code is taken too.
        given().contentType(ContentType.JSON).body(Map.of("codeUrl", codeUrl)).post("/sandbox/wechat/buyer/scan")
                .then().statusCode(200).body("tradeState", equalTo("NOTPAY"));
        given().contentType(ContentType.JSON).body(Map.of()).post("/sandbox/wechat/buyer/pay").then().statusCode(400)
                .body("error", equalTo("qrCode is required"));
        buyer("pay", "weixin://wxpay/bizpayurl?pr=unknown").statusCode(404);
    }

    @Test
    void theMerchantRefundsAtItsConsole() {
        NativePayService wechat = WechatSandboxClients.nativePay(WechatSandboxClients.config(keys, config.mchid()),
                port, Duration.ofSeconds(10));
        String no = outTradeNo();
        buyer("pay", wechat.prepay(prepay(no, 1000, "https://shop.example/notify")).getCodeUrl()).statusCode(200);
        merchantRefund(no, 400, "M1").statusCode(200).body("refunded", equalTo(400))
                .body("tradeState", equalTo("REFUND")).body("refunds[0].outRefundNo", equalTo("M1"));
        merchantRefund(no, 400, "M1").statusCode(200).body("refunded", equalTo(400));
        merchantRefund(no, 601, "M2").statusCode(409).body("error", containsString("可退金额"));
        merchantRefund(outTradeNo(), 1, "M3").statusCode(404);
        merchantRefund(no, 0, "M4").statusCode(400);
        assertEquals(Transaction.TradeStateEnum.REFUND, query(wechat, no).getTradeState());
    }

    private static io.restassured.response.ValidatableResponse merchantRefund(String outTradeNo, int fen,
            String outRefundNo) {
        return given().contentType(ContentType.JSON).body(Map.of("outTradeNo", outTradeNo, "amount", fen,
                "outRefundNo", outRefundNo)).post("/sandbox/wechat/merchant/refund").then();
    }
}
