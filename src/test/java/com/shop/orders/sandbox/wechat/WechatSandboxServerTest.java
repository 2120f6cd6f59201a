package com.shop.orders.sandbox.wechat;

import static com.shop.orders.sandbox.wechat.WechatRequests.close;
import static com.shop.orders.sandbox.wechat.WechatRequests.outTradeNo;
import static com.shop.orders.sandbox.wechat.WechatRequests.prepay;
import static com.shop.orders.sandbox.wechat.WechatRequests.query;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.TestTls;
import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;

/**
 * The WeChat sandbox on a server of its own, as the packaged service meets it, talked to by the official SDK
 * unchanged: prepay, query, close (a signed 204), the buyer's payment over the sandbox's HTTP API and its notify
 * read by the SDK's NotificationParser (signature verified, resource decrypted), and fault knobs set over HTTP. The
 * SDK finds the Wechatpay-* headers only under their exact names, so every verified answer here is also the check
 * that the server does not rewrite them. Over HTTPS too, as WeChat's host and the notify URLs it requires.
 */
class WechatSandboxServerTest {

    private static WechatSandboxServer sandbox;
    private static RSAPublicKeyConfig sdk;
    private static NativePayService wechat;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        sandbox = WechatSandboxServer.start(0);
        sdk = WechatSandboxClients.config(sandbox.keys(), sandbox.mchid());
        wechat = WechatSandboxClients.nativePay(sdk, sandbox.port(), Duration.ofSeconds(5));
    }

    @AfterAll
    static void stop() {
        sandbox.close();
    }

    @AfterEach
    void resetFaults() throws Exception {
        assertEquals(200, sandboxApi("DELETE", "/faults", null).statusCode());
    }

    @Test
    void aTradeIsPrepaidPaidByTheBuyerAndNotifiedAsTheSdkExpects() throws Exception {
        try (WechatNotifyReceiver<Transaction> receiver = new WechatNotifyReceiver<>(
                WechatSandboxClients.notificationParser(sdk), Transaction.class, 1)) {
            String no = outTradeNo();
            String codeUrl = wechat.prepay(prepay(no, 1250, receiver.url())).getCodeUrl();
            assertTrue(codeUrl.startsWith("weixin://wxpay/bizpayurl?pr="), codeUrl);
            assertEquals(Transaction.TradeStateEnum.NOTPAY, query(wechat, no).getTradeState());

            HttpResponse<String> paid = sandboxApi("POST", "/buyer/pay", "{\"qrCode\":\"" + codeUrl + "\"}");
            assertEquals(200, paid.statusCode(), paid.body());
            assertTrue(paid.body().contains("\"tradeState\":\"SUCCESS\""), paid.body());
            assertEquals(409, sandboxApi("POST", "/buyer/pay", "{\"qrCode\":\"" + codeUrl + "\"}").statusCode());

            Transaction queried = query(wechat, no);
            assertEquals(Transaction.TradeStateEnum.SUCCESS, queried.getTradeState());
            // The first attempt is answered 500: the sandbox tries again, and the second one is acknowledged.
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 2
                    && sandbox.trades().trade(no).orElseThrow().notifyAcknowledged());
            Transaction notified = receiver.received().get(0);
            assertEquals(no, notified.getOutTradeNo());
            assertEquals(sandbox.mchid(), notified.getMchid());
            assertEquals(queried.getTransactionId(), notified.getTransactionId());
            assertEquals(1250, notified.getAmount().getTotal());
            assertEquals(List.of(), receiver.refused());
            assertEquals("ORDERPAID", assertThrows(ServiceException.class, () -> wechat.closeOrder(close(no)))
                    .getErrorCode());

            HttpResponse<String> listed = sandboxApi("GET", "/trades/" + no.replace("|", "%7C"), null);
            assertEquals(200, listed.statusCode());
            assertTrue(listed.body().contains("\"notifyAcknowledged\":true"), listed.body());
        }
    }

    @Test
    void aClosedTradeCannotBePaid() throws Exception {
        String no = outTradeNo();
        String codeUrl = wechat.prepay(prepay(no, 300, "https://shop.example/notify")).getCodeUrl();
        // A 204, signed: the SDK verifies the empty answer's headers too.
        wechat.closeOrder(close(no));
        assertEquals(Transaction.TradeStateEnum.CLOSED, query(wechat, no).getTradeState());
        HttpResponse<String> refused = sandboxApi("POST", "/buyer/pay", "{\"qrCode\":\"" + codeUrl + "\"}");
        assertEquals(409, refused.statusCode());
        assertTrue(refused.body().contains("the trade is closed"), refused.body());
        assertThrows(WechatBuyerRefused.class, () -> sandbox.pay(codeUrl));
    }

    @Test
    void faultKnobsSetOverHttpReachTheSdk() throws Exception {
        String no = outTradeNo();
        String codeUrl = wechat.prepay(prepay(no, 700, "https://shop.example/notify")).getCodeUrl();
        HttpResponse<String> armed = sandboxApi("PUT", "/faults",
                "{\"dropNotifies\":true,\"methods\":{\"query\":{\"httpStatus\":500,\"times\":1}}}");
        assertEquals(200, armed.statusCode(), armed.body());
        ServiceException failed = assertThrows(ServiceException.class, () -> query(wechat, no));
        assertEquals(500, failed.getHttpStatusCode());
        assertEquals("SYSTEM_ERROR", failed.getErrorCode());

        sandbox.pay(codeUrl).orElseThrow();
        assertEquals(Transaction.TradeStateEnum.SUCCESS, query(wechat, no).getTradeState());
        assertEquals(0, sandbox.trades().trade(no).orElseThrow().notifyAttempts());
        assertEquals(2, sandbox.trades().calls(WechatGateway.QUERY, no));
        assertEquals(400, sandboxApi("PUT", "/faults", "{\"methods\":{\"nope\":{\"httpStatus\":500}}}")
                .statusCode());
    }

    @Test
    void overHttpsAsWechatsHostAndToAnHttpsNotifyUrl() throws Exception {
        TestTls tls = TestTls.generate(Path.of("target", "wechat-sandbox-server-tls"));
        try (WechatSandboxServer secured = WechatSandboxServer.startHttps(0, new WechatSandboxServer.TlsFiles(
                tls.serverCertificatePem(), tls.serverKeyPem(), tls.clientContext()));
                WechatNotifyReceiver<Transaction> receiver = new WechatNotifyReceiver<>(
                        WechatSandboxClients.notificationParser(WechatSandboxClients.config(secured.keys(),
                                secured.mchid())),
                        Transaction.class, 0, tls.serverContext())) {
            assertTrue(secured.baseUrl().startsWith("https://"), secured.baseUrl());
            assertTrue(receiver.url().startsWith("https://"), receiver.url());
            NativePayService overTls = WechatSandboxClients.nativePayOverTls(
                    WechatSandboxClients.config(secured.keys(), secured.mchid()), secured.port(),
                    tls.clientContext(), tls.clientTrustManager());
            String no = outTradeNo();
            secured.pay(overTls.prepay(prepay(no, 900, receiver.url())).getCodeUrl()).orElseThrow();
            assertEquals(Transaction.TradeStateEnum.SUCCESS, query(overTls, no).getTradeState());
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() == 1);
            assertEquals(no, receiver.received().get(0).getOutTradeNo());
            // The sandbox records the acknowledgement once the receiver's answer is back, after the receiver has it.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> secured.trades().trade(no).orElseThrow().notifyAcknowledged());
        }
    }

    private HttpResponse<String> sandboxApi(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(sandbox.baseUrl() + path))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
