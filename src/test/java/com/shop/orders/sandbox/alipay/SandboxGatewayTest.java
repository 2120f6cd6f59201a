package com.shop.orders.sandbox.alipay;

import static com.shop.orders.sandbox.alipay.SandboxClients.precreate;
import static com.shop.orders.sandbox.alipay.SandboxClients.query;
import static com.shop.orders.sandbox.alipay.SandboxClients.refund;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alipay.api.AlipayApiException;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.request.AlipayTradeCancelRequest;
import com.alipay.api.request.AlipayTradeCloseRequest;
import com.alipay.api.request.AlipayTradePayRequest;
import com.alipay.api.response.AlipayTradeCancelResponse;
import com.alipay.api.response.AlipayTradeCloseResponse;
import com.alipay.api.response.AlipayTradePayResponse;
import com.alipay.api.response.AlipayTradePrecreateResponse;
import com.alipay.api.response.AlipayTradeQueryResponse;
import com.alipay.api.response.AlipayTradeRefundResponse;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SandboxGatewayTest extends SandboxFixture {

    private static final String QUERY = "alipay.trade.query";

    @Test
    void tradeExistsOnlyOnceScannedAndIsPaidByTheBuyer() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        AlipayTradePrecreateResponse created = precreate(client, outTradeNo, "88.80", "", null);
        assertEquals("10000", created.getCode());
        assertEquals(outTradeNo, created.getOutTradeNo());
        assertTrue(created.getQrCode().startsWith("https://qr.alipay.com/sbx"), created.getQrCode());

        AlipayTradeQueryResponse beforeScan = query(client, outTradeNo);
        assertEquals("40004", beforeScan.getCode());
        assertEquals("ACQ.TRADE_NOT_EXIST", beforeScan.getSubCode());

        buyer("scan", created.getQrCode()).then().statusCode(200).body("status", equalTo("WAIT_BUYER_PAY"));
        AlipayTradeQueryResponse scanned = query(client, outTradeNo);
        assertEquals("10000", scanned.getCode());
        assertEquals("WAIT_BUYER_PAY", scanned.getTradeStatus());
        assertEquals("88.80", scanned.getTotalAmount());
        assertNull(scanned.getSendPayDate());
        assertEquals(28, scanned.getTradeNo().length());

        buyer("pay", created.getQrCode()).then().statusCode(200).body("status", equalTo("TRADE_SUCCESS"));
        AlipayTradeQueryResponse paid = query(client, outTradeNo);
        assertEquals("TRADE_SUCCESS", paid.getTradeStatus());
        assertEquals(scanned.getTradeNo(), paid.getTradeNo());
        assertEquals("88.80", paid.getBuyerPayAmount());
        assertNotNull(paid.getSendPayDate());
        assertNotNull(paid.getBuyerLogonId());

        buyer("pay", created.getQrCode()).then().statusCode(409).body("error", equalTo("trade already paid"));
        assertEquals(3, trades.calls(QUERY, outTradeNo));
        assertEquals(1, trades.calls("alipay.trade.precreate", outTradeNo));
        assertEquals(SandboxTradeStatus.TRADE_SUCCESS, trades.trade(outTradeNo).orElseThrow().status());
    }

    @Test
    void repeatedPrecreateGivesTheSameQrCodeForTheSameAmountOnly() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        String qrCode = precreate(client, outTradeNo, "5.00", "", null).getQrCode();
        assertEquals(qrCode, precreate(client, outTradeNo, "5", "", null).getQrCode());

        AlipayTradePrecreateResponse otherAmount = precreate(client, outTradeNo, "6.00", "", null);
        assertEquals("ACQ.CONTEXT_INCONSISTENT", otherAmount.getSubCode());

        buyer("pay", qrCode).then().statusCode(200);
        assertEquals("ACQ.TRADE_HAS_SUCCESS", precreate(client, outTradeNo, "5.00", "", null).getSubCode());
    }

    @Test
    void closeOfAnUnscannedTradeFindsNoTradeAndOfAScannedOneClosesIt() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        String qrCode = precreate(client, outTradeNo, "12.00", "", null).getQrCode();

        AlipayTradeCloseResponse unscanned = close(outTradeNo);
        assertEquals("40004", unscanned.getCode());
        assertEquals("ACQ.TRADE_NOT_EXIST", unscanned.getSubCode());

        buyer("scan", qrCode).then().statusCode(200);
        AlipayTradeCloseResponse closed = close(outTradeNo);
        assertEquals("10000", closed.getCode());
        assertEquals(outTradeNo, closed.getOutTradeNo());
        assertEquals("TRADE_CLOSED", query(client, outTradeNo).getTradeStatus());
        buyer("pay", qrCode).then().statusCode(409).body("error", containsString("closed"));
        assertEquals("ACQ.TRADE_STATUS_ERROR", close(outTradeNo).getSubCode());
    }

    @Test
    void closeOfAPaidTradeIsAStatusError() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        buyer("pay", precreate(client, outTradeNo, "1.00", "", null).getQrCode()).then().statusCode(200);
        AlipayTradeCloseResponse answer = close(outTradeNo);
        assertEquals("40004", answer.getCode());
        assertEquals("ACQ.TRADE_STATUS_ERROR", answer.getSubCode());
    }

    @Test
    void paymentAfterExpiryIsRefused() throws Exception {
        String expiry = ",\"time_expire\":\"" + SandboxClients.chinaTime(Instant.now().plusSeconds(3)) + "\"";
        String scannedNo = SandboxClients.newOutTradeNo();
        String scannedQr = precreate(client, scannedNo, "3.00", expiry, null).getQrCode();
        String unscannedQr = precreate(client, SandboxClients.newOutTradeNo(), "3.00", expiry, null).getQrCode();
        buyer("scan", scannedQr).then().statusCode(200);

        await().atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(200))
                .until(() -> trades.trade(scannedNo).orElseThrow().status() == SandboxTradeStatus.TRADE_CLOSED);

        assertEquals("TRADE_CLOSED", query(client, scannedNo).getTradeStatus());
        buyer("pay", scannedQr).then().statusCode(409).body("error", containsString("expired"));
        buyer("pay", unscannedQr).then().statusCode(409).body("error", equalTo("QR code expired"));
    }

    @Test
    void refundIsIdempotentPerRequestNumberAndClosesAFullyRefundedTrade() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        String qrCode = precreate(client, outTradeNo, "10.00", "", null).getQrCode();
        assertEquals("ACQ.TRADE_NOT_EXIST", refund(client, outTradeNo, "1.00", "R0").getSubCode());
        buyer("scan", qrCode).then().statusCode(200);
        assertEquals("ACQ.TRADE_STATUS_ERROR", refund(client, outTradeNo, "1.00", "R0").getSubCode());
        buyer("pay", qrCode).then().statusCode(200);

        AlipayTradeRefundResponse first = refund(client, outTradeNo, "3.00", "R1");
        assertEquals("10000", first.getCode());
        assertEquals("Y", first.getFundChange());
        assertEquals("3.00", first.getRefundFee());

        AlipayTradeRefundResponse repeat = refund(client, outTradeNo, "3.00", "R1");
        assertEquals("10000", repeat.getCode());
        assertEquals("N", repeat.getFundChange());
        assertEquals("3.00", repeat.getRefundFee());

        assertEquals("ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", refund(client, outTradeNo, "7.01", "R2").getSubCode());
        assertEquals("TRADE_SUCCESS", query(client, outTradeNo).getTradeStatus());

        AlipayTradeRefundResponse rest = refund(client, outTradeNo, "7.00", "R2");
        assertEquals("Y", rest.getFundChange());
        assertEquals("10.00", rest.getRefundFee());
        assertEquals("TRADE_CLOSED", query(client, outTradeNo).getTradeStatus());
        assertEquals(0, new BigDecimal("10.00").compareTo(trades.trade(outTradeNo).orElseThrow().refundedAmount()));
        assertEquals("N", refund(client, outTradeNo, "7.00", "R2").getFundChange());
        assertEquals("ACQ.TRADE_HAS_CLOSE", refund(client, outTradeNo, "0.01", "R3").getSubCode());
    }

    @Test
    void cancelClosesEvenAnUnscannedQrCode() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        String qrCode = precreate(client, outTradeNo, "2.00", "", null).getQrCode();
        AlipayTradeCancelRequest request = new AlipayTradeCancelRequest();
        request.setBizContent("{\"out_trade_no\":\"" + outTradeNo + "\"}");
        AlipayTradeCancelResponse cancelled = client.execute(request);
        assertEquals("10000", cancelled.getCode());
        assertEquals("close", cancelled.getAction());
        buyer("scan", qrCode).then().statusCode(409);
        assertEquals("TRADE_CLOSED", query(client, outTradeNo).getTradeStatus());
    }

    @Test
    void requestSignedWithAnotherKeyIsRejected() throws Exception {
        DefaultAlipayClient stranger = SandboxClients.client(gatewayUrl, SandboxClients.foreignPrivateKey(),
                keys.alipayPublicKey());
        String outTradeNo = SandboxClients.newOutTradeNo();
        AlipayTradePrecreateResponse answer = precreate(stranger, outTradeNo, "1.00", "", null);
        assertEquals("40002", answer.getCode());
        assertEquals("Invalid Arguments", answer.getMsg());
        assertEquals("isv.invalid-signature", answer.getSubCode());
        assertTrue(trades.trade(outTradeNo).isEmpty());
    }

    @Test
    void otherAppsAndUnknownMethodsAreRefused() throws Exception {
        DefaultAlipayClient otherApp = new DefaultAlipayClient(gatewayUrl.toString(), "2021000000000999",
                keys.merchantPrivateKey(), "json", "utf-8", keys.alipayPublicKey(), "RSA2");
        AlipayTradePrecreateResponse wrongApp = precreate(otherApp, SandboxClients.newOutTradeNo(), "1.00", "", null);
        assertEquals("40002", wrongApp.getCode());
        assertEquals("isv.invalid-app-id", wrongApp.getSubCode());

        // not served by the sandbox: answered in Alipay's signed "error_response" node
        AlipayTradePayRequest pay = new AlipayTradePayRequest();
        pay.setBizContent("{\"out_trade_no\":\"" + SandboxClients.newOutTradeNo() + "\"}");
        AlipayTradePayResponse unknown = client.execute(pay);
        assertEquals("40002", unknown.getCode());
        assertEquals("isv.invalid-method", unknown.getSubCode());
    }

    @Test
    void answersAreSignedByTheSandboxAlipayKeyOnly() throws Exception {
        DefaultAlipayClient trustingAnotherAlipay = SandboxClients.client(gatewayUrl, keys.merchantPrivateKey(),
                SandboxClients.foreignPublicKey());
        AlipayApiException refused = assertThrows(AlipayApiException.class,
                () -> precreate(trustingAnotherAlipay, SandboxClients.newOutTradeNo(), "1.00", "", null));
        assertTrue(refused.getMessage().contains("sign check fail"), refused.getMessage());
    }

    @Test
    void queryCanBeMadeToAnswerSystemError() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        buyer("scan", precreate(client, outTradeNo, "4.00", "", null).getQrCode()).then().statusCode(200);
        faults.failFor(outTradeNo, QUERY, MethodFault.systemError(), 2);

        for (int i = 0; i < 2; i++) {
            AlipayTradeQueryResponse failed = query(client, outTradeNo);
            assertEquals("20000", failed.getCode());
            assertEquals("Service Currently Unavailable", failed.getMsg());
            assertEquals("ACQ.SYSTEM_ERROR", failed.getSubCode());
            assertFalse(failed.isSuccess());
        }
        assertEquals("WAIT_BUYER_PAY", query(client, outTradeNo).getTradeStatus());
        assertEquals(3, trades.calls(QUERY, outTradeNo));
    }

    @Test
    void httpErrorAndLatencyFaults() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        faults.fail(QUERY, MethodFault.httpStatus(502));
        assertThrows(AlipayApiException.class, () -> query(client, outTradeNo));
        faults.reset();

        faults.latency(Duration.ofMillis(400));
        long start = System.nanoTime();
        assertEquals("ACQ.TRADE_NOT_EXIST", query(client, outTradeNo).getSubCode());
        assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() >= 400);
    }

    @Test
    void heldBackAnswerTimesTheClientOutButTheCallTakesEffect() throws Exception {
        String outTradeNo = SandboxClients.newOutTradeNo();
        buyer("scan", precreate(client, outTradeNo, "9.00", "", null).getQrCode()).then().statusCode(200);
        faults.failFor(outTradeNo, "alipay.trade.close", MethodFault.noAnswerFor(Duration.ofSeconds(5)), 1);
        DefaultAlipayClient impatient = SandboxClients.client(gatewayUrl, keys.merchantPrivateKey(), keys.alipayPublicKey());
        impatient.setReadTimeout(500);

        assertThrows(AlipayApiException.class, () -> {
            AlipayTradeCloseRequest request = new AlipayTradeCloseRequest();
            request.setBizContent("{\"out_trade_no\":\"" + outTradeNo + "\"}");
            impatient.execute(request);
        });
        assertEquals("TRADE_CLOSED", query(client, outTradeNo).getTradeStatus());
    }

    @Test
    void faultsCanBeSetAndResetOverHttp() {
        given().contentType(ContentType.JSON)
                .body(Map.of("latency", "50ms", "dropNotifies", true,
                        "methods", Map.of(QUERY, Map.of("subCode", "ACQ.SYSTEM_ERROR", "code", "20000", "times", 1))))
                .put("/sandbox/alipay/faults")
                .then().statusCode(200)
                .body("dropNotifies", equalTo(true))
                .body("methods.'alipay.trade.query'.subCode", equalTo("ACQ.SYSTEM_ERROR"));
        assertTrue(faults.notifiesDropped());
        assertEquals(Duration.ofMillis(50), faults.latency());

        given().contentType(ContentType.JSON).body(Map.of("latency", "soon"))
                .put("/sandbox/alipay/faults").then().statusCode(400);

        given().delete("/sandbox/alipay/faults").then().statusCode(200).body("dropNotifies", equalTo(false));
        assertFalse(faults.notifiesDropped());
        assertTrue(faults.methodFaults().isEmpty());
    }

    @Test
    void buyerEndpointsAndPage() throws Exception {
        given().contentType(ContentType.JSON).body(Map.of("qrCode", "https://qr.alipay.com/sbxnothing"))
                .post("/sandbox/alipay/buyer/scan").then().statusCode(404);
        String outTradeNo = SandboxClients.newOutTradeNo();
        precreate(client, outTradeNo, "1.50", "", null);
        given().get("/sandbox/alipay/").then().statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString(outTradeNo));
    }

    private static io.restassured.response.Response buyer(String action, String qrCode) {
        return given().contentType(ContentType.JSON).body(Map.of("qrCode", qrCode))
                .post("/sandbox/alipay/buyer/" + action);
    }

    private AlipayTradeCloseResponse close(String outTradeNo) throws AlipayApiException {
        AlipayTradeCloseRequest request = new AlipayTradeCloseRequest();
        request.setBizContent("{\"out_trade_no\":\"" + outTradeNo + "\"}");
        return client.execute(request);
    }
}
