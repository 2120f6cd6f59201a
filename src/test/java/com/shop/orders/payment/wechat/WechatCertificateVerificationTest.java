package com.shop.orders.payment.wechat;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.wechat.pay.java.core.certificate.AutoCertificateService;

import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeState;
import com.shop.orders.sandbox.wechat.WechatFaults;
import com.shop.orders.sandbox.wechat.WechatNotifies;
import com.shop.orders.sandbox.wechat.WechatSandboxKeys;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * The channel of a merchant that verifies with WeChat's platform certificates (shop.wechat.verification=certificate):
 * the SDK downloads them from the sandbox's /v3/certificates at the first call, not at start, and a platform that
 * serves none leaves the channel unavailable (503) until it does; answers and notifies are then verified with the
 * downloaded certificate, named by its serial, and nothing signed under another serial is believed.
 */
@QuarkusTest
@TestProfile(WechatCertificateVerificationTest.CertificateVerification.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WechatCertificateVerificationTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String MCHID = "1900000001";
    private static final String APPID = "wxd678efh567hg6787";

    /** Certificate mode, and the sandbox's notifies signed under its certificate to match. */
    public static class CertificateVerification implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("shop.wechat.verification", "certificate",
                    "shop.wechat-sandbox.notifies-signed-with", "certificate");
        }
    }

    @Inject
    WechatChannel channel;

    @Inject
    WechatFaults faults;

    @Inject
    WechatSandboxKeys keys;

    @BeforeEach
    void noNotifies() {
        faults.dropNotifies(true);
    }

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    @Order(1)
    void aPlatformWithoutCertificatesLeavesTheChannelUnavailableUntilItHasThem() {
        faults.certificatesNotFound(true);
        String outTradeNo = channel.outTradeNoOf(WechatChannelTest.orderNo());
        PaymentGatewayException unavailable = assertThrows(PaymentGatewayException.class, () -> query(outTradeNo));
        assertEquals(503, unavailable.status());
        // A notify cannot be verified either: a failure of ours, which WeChat sends again.
        String notify = notify(outTradeNo, "NOTPAY");
        post(notify, WechatNotifies.signed(keys, notify, keys.platformCertificateSerial())).statusCode(500)
                .body("code", equalTo("FAIL"));

        faults.certificatesNotFound(false);
        assertEquals(Trade.notFound(outTradeNo), query(outTradeNo));
        assertEquals(keys.platformCertificate(),
                AutoCertificateService.getCertificate(MCHID, "RSA", keys.platformCertificateSerial()));
    }

    @Test
    @Order(2)
    void answersAndNotifiesAreVerifiedWithTheDownloadedCertificate() {
        String outTradeNo = channel.outTradeNoOf(WechatChannelTest.orderNo());
        String codeUrl = channel.offer(outTradeNo, new BigDecimal("7.00"), "Order", Instant.now().plus(
                Duration.ofMinutes(15))).await().atMost(WAIT);
        assertEquals(TradeState.WAITING, query(outTradeNo).state());
        given().contentType(ContentType.JSON).body(Map.of("codeUrl", codeUrl)).post("/sandbox/wechat/buyer/pay").then()
                .statusCode(200);
        assertEquals(TradeState.PAID, query(outTradeNo).state());
        faults.wrongSerial(true);
        assertEquals("Payment provider answer not trusted",
                assertThrows(PaymentGatewayException.class, () -> query(outTradeNo)).title());
        faults.wrongSerial(false);

        String notPaid = notify(outTradeNo, "NOTPAY");
        post(notPaid, WechatNotifies.signed(keys, notPaid, keys.platformCertificateSerial())).statusCode(204);
        // Verified (the trade is then looked for), and not believed under the public-key ID this merchant does not use.
        String paid = notify(outTradeNo, "SUCCESS");
        post(paid, WechatNotifies.signed(keys, paid, keys.platformCertificateSerial())).statusCode(400)
                .body("message", equalTo("no such trade"));
        post(paid, WechatNotifies.signed(keys, paid)).statusCode(401);
    }

    private Trade query(String outTradeNo) {
        return channel.query(outTradeNo).await().atMost(WAIT);
    }

    private String notify(String outTradeNo, String tradeState) {
        return WechatNotifies.envelope("TRANSACTION.SUCCESS", keys.apiV3Key(),
                WechatNotifyTest.transaction(MCHID, APPID, outTradeNo, tradeState, 700));
    }

    private static ValidatableResponse post(String body, Map<String, String> headers) {
        var request = given().contentType(ContentType.JSON).body(body);
        headers.forEach(request::header);
        return request.post(WechatNotifyResource.PATH).then();
    }
}
