package com.shop.orders.sandbox.wechat;

import static com.shop.orders.sandbox.wechat.WechatRequests.buyer;
import static com.shop.orders.sandbox.wechat.WechatRequests.outTradeNo;
import static com.shop.orders.sandbox.wechat.WechatRequests.prepay;
import static com.shop.orders.sandbox.wechat.WechatRequests.query;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.wechat.WechatSandboxConfig.SignedWith;
import com.wechat.pay.java.core.RSAAutoCertificateConfig;
import com.wechat.pay.java.core.certificate.AutoCertificateService;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * The sandbox for a merchant in platform-certificate mode, with the SDK's RSAAutoCertificateConfig: the certificate
 * downloaded and decrypted in build(), answers signed under what each request names, notifies under the knob, and
 * the 404 WeChat answers merchants without certificates.
 */
@QuarkusTest
class WechatCertificateModeTest {

    @Inject
    WechatSandboxKeys keys;

    @Inject
    WechatFaults faults;

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void theSdkDownloadsThePlatformCertificateAndVerifiesAnswersWithIt() {
        RSAAutoCertificateConfig sdk = WechatSandboxClients.certificateConfig(keys, WechatRequests.MCHID, port);
        assertEquals(keys.platformCertificate(), AutoCertificateService.getCertificate(WechatRequests.MCHID, "RSA",
                keys.platformCertificateSerial()));

        // The SDK names the certificate's serial in its requests: answers come under it, and verify.
        NativePayService wechat = WechatSandboxClients.nativePay(sdk, port, Duration.ofSeconds(10));
        String no = outTradeNo();
        assertTrue(wechat.prepay(prepay(no, 300, "https://shop.example/notify")).getCodeUrl()
                .startsWith("weixin://wxpay/bizpayurl?pr="));
        assertEquals(Transaction.TradeStateEnum.NOTPAY, query(wechat, no).getTradeState());
        wechat.closeOrder(WechatRequests.close(no));

        // A public-key merchant beside it is still answered under the public-key ID.
        NativePayService publicKey = WechatSandboxClients.nativePay(WechatSandboxClients.config(keys,
                WechatRequests.MCHID), port, Duration.ofSeconds(10));
        assertEquals(Transaction.TradeStateEnum.CLOSED, query(publicKey, no).getTradeState());

        faults.wrongSerial(true);
        assertThrows(ValidationException.class, () -> query(wechat, no));
    }

    @Test
    void notifiesAreSignedUnderTheCertificateWhenTheKnobSaysSo() throws Exception {
        RSAAutoCertificateConfig sdk = WechatSandboxClients.certificateConfig(keys, WechatRequests.MCHID, port);
        NativePayService wechat = WechatSandboxClients.nativePay(sdk, port, Duration.ofSeconds(10));
        faults.notifiesSignedWith(SignedWith.CERTIFICATE);
        try (WechatNotifyReceiver<Transaction> certificate = new WechatNotifyReceiver<>(
                WechatSandboxClients.notificationParser(sdk), Transaction.class, 0);
                WechatNotifyReceiver<Transaction> publicKey = new WechatNotifyReceiver<>(
                        WechatSandboxClients.notificationParser(WechatSandboxClients.config(keys, WechatRequests.MCHID)),
                        Transaction.class, 0)) {
            String no = outTradeNo();
            buyer("pay", wechat.prepay(prepay(no, 450, certificate.url())).getCodeUrl()).statusCode(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> certificate.received().size() == 1);
            assertEquals(no, certificate.received().get(0).getOutTradeNo());
            assertEquals(List.of(), certificate.refused());

            // The same notify to a merchant verifying with the public key: its parser refuses the serial.
            String other = outTradeNo();
            buyer("pay", wechat.prepay(prepay(other, 450, publicKey.url())).getCodeUrl()).statusCode(200);
            await().atMost(Duration.ofSeconds(10)).until(() -> publicKey.refused().size() == 1);
            assertEquals(List.of(), publicKey.received());
        }
    }

    @Test
    void aMerchantWithoutCertificatesGetsWechatsNotFound() {
        faults.certificatesNotFound(true);
        ServiceException notFound = assertThrows(ServiceException.class,
                () -> WechatSandboxClients.certificateConfig(keys, WechatRequests.MCHID, port));
        assertEquals(404, notFound.getHttpStatusCode());
        assertEquals("RESOURCE_NOT_EXISTS", notFound.getErrorCode());
        assertTrue(notFound.getErrorMessage().startsWith("无可用的平台证书"), notFound.getErrorMessage());
    }

    @Test
    void theCertificateKnobsOverHttp() {
        given().contentType(ContentType.JSON).body(Map.of("certificates", "not-found", "notifiesSignedWith",
                "certificate")).put("/sandbox/wechat/faults").then().statusCode(200)
                .body("certificates", equalTo("not-found")).body("notifiesSignedWith", equalTo("certificate"));
        given().contentType(ContentType.JSON).body(Map.of("certificates", "gone")).put("/sandbox/wechat/faults")
                .then().statusCode(400);
        given().delete("/sandbox/wechat/faults").then().statusCode(200).body("certificates", equalTo("served"))
                .body("notifiesSignedWith", equalTo("public-key"));
    }
}
