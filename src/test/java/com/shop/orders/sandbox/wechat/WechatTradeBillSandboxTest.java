package com.shop.orders.sandbox.wechat;

import static com.shop.orders.sandbox.wechat.WechatRequests.buyer;
import static com.shop.orders.sandbox.wechat.WechatRequests.outTradeNo;
import static com.shop.orders.sandbox.wechat.WechatRequests.prepay;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.service.billdownload.BillDownloadServiceExtension;
import com.wechat.pay.java.service.billdownload.DigestBillEntity;
import com.wechat.pay.java.service.billdownload.model.BillType;
import com.wechat.pay.java.service.billdownload.model.GetTradeBillRequest;
import com.wechat.pay.java.service.billdownload.model.TarType;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayRequest;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * The sandbox's WeChat trade bill as the official SDK meets it: the bill query signed and verified, the download
 * (unsigned) unzipped and checked against its SHA-1, the file in WeChat's ALL layout with the day's payment, a
 * Chinese product name (its comma written full-width) and the merchant console's refund; and the bill's knobs.
 */
@QuarkusTest
class WechatTradeBillSandboxTest {

    private static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");

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
    void theDaysBillHoldsItsPaymentsAndRefundsAndMatchesItsHash() throws IOException {
        RSAPublicKeyConfig sdk = WechatSandboxClients.config(keys, config.mchid());
        NativePayService wechat = WechatSandboxClients.nativePay(sdk, port, Duration.ofSeconds(10));
        String no = outTradeNo();
        PrepayRequest request = prepay(no, 1990, "http://localhost:" + port + "/nowhere");
        request.setDescription("精选绿茶，500克");
        buyer("pay", wechat.prepay(request).getCodeUrl()).statusCode(200);
        String console = "console-" + no.substring(1, 12);
        given().contentType(ContentType.JSON).body(Map.of("outTradeNo", no, "amount", 500, "outRefundNo", console))
                .post("/sandbox/wechat/merchant/refund").then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> "SUCCESS".equals(
                trades.refund(console).orElseThrow().status()));

        DigestBillEntity bill = bills(sdk).getTradeBill(today());
        String file;
        try (InputStream in = bill.getInputStream()) {
            file = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(bill.verifyHash(), "the SHA-1 of the unzipped file");
        List<String> lines = file.lines().toList();
        assertEquals(WechatTradeBills.HEADER, lines.get(0));
        String transactionId = trades.trade(no).orElseThrow().transactionId();
        assertTrue(lines.stream().anyMatch(line -> line.contains("`" + transactionId + ",`" + no + ",")
                && line.contains(",`NATIVE,`SUCCESS,") && line.contains(",`19.90,") && line.contains("`精选绿茶，500克,")),
                file);
        assertTrue(lines.stream().anyMatch(line -> line.contains(",`REFUND,") && line.contains("`" + console + ",")
                && line.contains(",`5.00,")), file);
        assertEquals(WechatTradeBills.SUMMARY_HEADER, lines.get(lines.size() - 2));
        assertEquals("`" + (lines.size() - 3), lines.get(lines.size() - 1).split(",")[0]);
    }

    @Test
    void theBillsKnobsRefuseItDamageItOrAreRefusedThemselves() throws IOException {
        RSAPublicKeyConfig sdk = WechatSandboxClients.config(keys, config.mchid());
        faults.bill(new WechatBillFaults(true, null, null, null));
        ServiceException late = assertThrows(ServiceException.class, () -> bills(sdk).getTradeBill(today()));
        assertEquals(400, late.getHttpStatusCode());
        assertEquals("NO_STATEMENT_EXIST", late.getErrorCode());

        faults.bill(new WechatBillFaults(false, null, null, "wrong-hash"));
        DigestBillEntity tampered = bills(sdk).getTradeBill(today());
        try (InputStream in = tampered.getInputStream()) {
            in.readAllBytes();
        }
        assertFalse(tampered.verifyHash());

        // A knob that is not one changes nothing; one that is is shown.
        faults.reset();
        given().contentType(ContentType.JSON).body("{\"bill\":{\"damage\":\"shredded\"}}").put("/sandbox/wechat/faults")
                .then().statusCode(400);
        given().contentType(ContentType.JSON).body("{\"bill\":{\"amounts\":{\"X1W\":\"0.001\"}}}")
                .put("/sandbox/wechat/faults").then().statusCode(400);
        given().get("/sandbox/wechat/faults").then().statusCode(200).body("bill.late", equalTo(false))
                .body("bill.damage", equalTo("none"));
        given().contentType(ContentType.JSON).body("{\"bill\":{\"late\":true,\"drop\":[\"X1W\"]}}")
                .put("/sandbox/wechat/faults").then().statusCode(200).body("bill.late", equalTo(true))
                .body("bill.drop", equalTo(List.of("X1W")));
        assertTrue(faults.bill().late());
    }

    @Test
    void aBillQueryNotSignedByTheMerchantIsRefused() {
        given().queryParam("bill_date", today().toString()).get("/sandbox/wechat/v3/bill/tradebill").then()
                .statusCode(401).body("code", equalTo("SIGN_ERROR"));
        given().queryParam("token", "0000").get("/sandbox/wechat/v3/billdownload/file").then().statusCode(401);
    }

    private Bills bills(RSAPublicKeyConfig sdk) {
        return new Bills(new BillDownloadServiceExtension.Builder()
                .httpClient(WechatSandboxClients.httpClient(sdk, port, Duration.ofSeconds(10)))
                .decryptor(sdk.createDecryptor()).build());
    }

    /** The SDK's bill of a day, as the service asks for it: ALL, gzipped. */
    private record Bills(BillDownloadServiceExtension sdk) {

        DigestBillEntity getTradeBill(LocalDate day) {
            GetTradeBillRequest request = new GetTradeBillRequest();
            request.setBillDate(day.toString());
            request.setBillType(BillType.ALL);
            request.setTarType(TarType.GZIP);
            return sdk.getTradeBill(request);
        }
    }

    private static LocalDate today() {
        return LocalDate.now(CHINA);
    }
}
