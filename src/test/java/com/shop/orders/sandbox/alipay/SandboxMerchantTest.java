package com.shop.orders.sandbox.alipay;

import static com.shop.orders.sandbox.alipay.SandboxClients.refundQuery;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.shop.orders.payment.BillEntry;
import com.shop.orders.payment.alipay.TradeBillParser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Refunds made at Alipay's console, which the order service never asked for. */
@QuarkusTest
class SandboxMerchantTest extends SandboxFixture {

    @Inject
    TradeBills bills;

    @Test
    void consoleRefundReachesTheTradeTheRefundQueryAndTheDaysBill() throws Exception {
        String outTradeNo = paidTrade("9.00");

        consoleRefund(outTradeNo, "2.50", "CONSOLE-1").then().statusCode(200)
                .body("outTradeNo", equalTo(outTradeNo))
                .body("status", equalTo("TRADE_SUCCESS"))
                .body("refunds", hasSize(1))
                .body("refunds[0].requestNo", equalTo("CONSOLE-1"));

        TradeSnapshot trade = trades.trade(outTradeNo).orElseThrow();
        assertEquals(0, new BigDecimal("2.50").compareTo(trade.refundedAmount()));
        assertEquals(List.of("CONSOLE-1"), trade.refunds().stream().map(RefundSnapshot::requestNo).toList());
        assertEquals("REFUND_SUCCESS", refundQuery(client, outTradeNo, "CONSOLE-1").getRefundStatus());

        Instant now = Instant.now();
        LocalDate today = LocalDate.ofInstant(now, AlipayTime.CHINA);
        List<BillEntry> refunds = TradeBillParser.parse(bills.zip(today, now), today, AlipayTime.CHINA, 10_000_000)
                .entries().stream()
                .filter(e -> e.outTradeNo().equals(outTradeNo) && e.kind() == BillEntry.Kind.REFUND)
                .toList();
        assertEquals(1, refunds.size());
        assertEquals("CONSOLE-1", refunds.get(0).requestNo());
        assertEquals(0, new BigDecimal("2.50").compareTo(refunds.get(0).amount()));
        assertEquals(trade.tradeNo(), refunds.get(0).tradeNo());
    }

    @Test
    void consoleRefundIsRefusedAsAlipayRefuses() throws Exception {
        consoleRefund(SandboxClients.newOutTradeNo(), "1.00", "C1").then().statusCode(404);

        String outTradeNo = paidTrade("3.00");
        consoleRefund(outTradeNo, "1.001", "C1").then().statusCode(400).body("error", containsString("amount"));
        given().contentType(ContentType.JSON).body(Map.of("outTradeNo", outTradeNo, "amount", "1.00"))
                .post("/sandbox/alipay/merchant/refund").then().statusCode(400);
        consoleRefund(outTradeNo, "3.01", "C1").then().statusCode(409)
                .body("error", containsString("ACQ.REFUND_AMT_NOT_EQUAL_TOTAL"));

        consoleRefund(outTradeNo, "3.00", "C1").then().statusCode(200).body("status", equalTo("TRADE_CLOSED"));
        // the same request number again moves no money, as at the gateway
        consoleRefund(outTradeNo, "3.00", "C1").then().statusCode(200).body("refunds", hasSize(1));
        assertEquals(0, new BigDecimal("3.00").compareTo(trades.trade(outTradeNo).orElseThrow().refundedAmount()));
    }

    private static Response consoleRefund(String outTradeNo, String amount, String outRequestNo) {
        return given().contentType(ContentType.JSON)
                .body(Map.of("outTradeNo", outTradeNo, "amount", amount, "outRequestNo", outRequestNo))
                .post("/sandbox/alipay/merchant/refund");
    }
}
