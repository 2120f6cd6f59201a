package com.shop.orders.sandbox.alipay;

import static com.shop.orders.sandbox.alipay.SandboxClients.precreate;
import static com.shop.orders.sandbox.alipay.SandboxClients.refund;
import static com.shop.orders.sandbox.alipay.SandboxClients.refundQuery;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.alipay.api.AlipayApiException;
import com.alipay.api.response.AlipayTradeFastpayRefundQueryResponse;
import com.alipay.api.response.AlipayTradeRefundResponse;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** alipay.trade.fastpay.refund.query, and refund faults answered after the refund was made. */
@QuarkusTest
class SandboxRefundTest extends SandboxFixture {

    private static final String REFUND = "alipay.trade.refund";

    @Test
    void refundQueryAnswersTheRefundOfTheRequestNumber() throws Exception {
        String outTradeNo = paidTrade("10.00");
        refund(client, outTradeNo, "3.00", "R1");

        AlipayTradeFastpayRefundQueryResponse found = refundQuery(client, outTradeNo, "R1");
        assertEquals("10000", found.getCode());
        assertEquals(outTradeNo, found.getOutTradeNo());
        assertEquals(trades.trade(outTradeNo).orElseThrow().tradeNo(), found.getTradeNo());
        assertEquals("R1", found.getOutRequestNo());
        assertEquals("3.00", found.getRefundAmount());
        assertEquals("10.00", found.getTotalAmount());
        assertEquals("REFUND_SUCCESS", found.getRefundStatus());
        RefundSnapshot made = trades.trade(outTradeNo).orElseThrow().refund("R1").orElseThrow();
        assertEquals(made.at().truncatedTo(ChronoUnit.SECONDS), found.getGmtRefundPay().toInstant());
    }

    @Test
    void refundQueryOfARequestNumberNeverRefundedSucceedsWithoutTheRefund() throws Exception {
        String outTradeNo = paidTrade("10.00");
        // without out_request_no Alipay means the trade's own number, in the refund and in its query
        AlipayTradeFastpayRefundQueryResponse beforeRefund = refundQuery(client, outTradeNo, null);
        assertEquals("10000", beforeRefund.getCode());
        assertEquals(outTradeNo, beforeRefund.getOutRequestNo());
        assertNotRefunded(beforeRefund);

        refund(client, outTradeNo, "3.00", outTradeNo);
        assertEquals("3.00", refundQuery(client, outTradeNo, null).getRefundAmount());
        AlipayTradeFastpayRefundQueryResponse otherNumber = refundQuery(client, outTradeNo, "R2");
        assertEquals("10000", otherNumber.getCode());
        assertEquals(outTradeNo, otherNumber.getOutTradeNo());
        assertEquals("R2", otherNumber.getOutRequestNo());
        assertNotRefunded(otherNumber);
    }

    @Test
    void refundQueryOfNoTradeIsTradeNotExist() throws Exception {
        AlipayTradeFastpayRefundQueryResponse unknown = refundQuery(client, SandboxClients.newOutTradeNo(), "R1");
        assertEquals("40004", unknown.getCode());
        assertEquals("ACQ.TRADE_NOT_EXIST", unknown.getSubCode());

        String unscanned = SandboxClients.newOutTradeNo();
        precreate(client, unscanned, "1.00", "", null);
        assertEquals("ACQ.TRADE_NOT_EXIST", refundQuery(client, unscanned, "R1").getSubCode());
    }

    @Test
    void partialThenFullRefundAreQueriedAndListedInTheirOrder() throws Exception {
        String outTradeNo = paidTrade("10.00");
        assertEquals("Y", refund(client, outTradeNo, "4.00", "P1").getFundChange());
        assertEquals("Y", refund(client, outTradeNo, "6.00", "P2").getFundChange());

        AlipayTradeFastpayRefundQueryResponse partial = refundQuery(client, outTradeNo, "P1");
        assertEquals("4.00", partial.getRefundAmount());
        assertEquals("REFUND_SUCCESS", partial.getRefundStatus());
        AlipayTradeFastpayRefundQueryResponse rest = refundQuery(client, outTradeNo, "P2");
        assertEquals("6.00", rest.getRefundAmount());
        assertEquals("REFUND_SUCCESS", rest.getRefundStatus());

        TradeSnapshot trade = trades.trade(outTradeNo).orElseThrow();
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, trade.status());
        assertEquals(List.of("P1", "P2"), trade.refunds().stream().map(RefundSnapshot::requestNo).toList());
        assertEquals(List.of(new BigDecimal("4.00"), new BigDecimal("6.00")),
                trade.refunds().stream().map(RefundSnapshot::amount).toList());
        // a closed trade still answers for its refunds
        assertEquals("REFUND_SUCCESS", refundQuery(client, outTradeNo, "P1").getRefundStatus());
    }

    @Test
    void systemErrorAfterTheRefundHidesARefundThatHappened() throws Exception {
        String outTradeNo = paidTrade("8.00");
        faults.failFor(outTradeNo, REFUND, MethodFault.systemError().withAfterEffect(), 1);

        AlipayTradeRefundResponse failed = refund(client, outTradeNo, "5.00", "S1");
        assertEquals("20000", failed.getCode());
        assertEquals("ACQ.SYSTEM_ERROR", failed.getSubCode());
        assertNull(failed.getFundChange());

        assertEquals("REFUND_SUCCESS", refundQuery(client, outTradeNo, "S1").getRefundStatus());
        AlipayTradeRefundResponse resent = refund(client, outTradeNo, "5.00", "S1");
        assertEquals("10000", resent.getCode());
        assertEquals("N", resent.getFundChange());
        assertEquals("5.00", resent.getRefundFee());
        TradeSnapshot trade = trades.trade(outTradeNo).orElseThrow();
        assertEquals(0, new BigDecimal("5.00").compareTo(trade.refundedAmount()));
        assertEquals(1, trade.refunds().size());
    }

    @Test
    void gatewayTimeoutAfterTheRefundSetOverHttp() throws Exception {
        String outTradeNo = paidTrade("7.00");
        given().contentType(ContentType.JSON)
                .body(Map.of("methods", Map.of(REFUND, Map.of("httpStatus", 504, "afterEffect", true, "times", 1))))
                .put("/sandbox/alipay/faults")
                .then().statusCode(200)
                .body("methods.'alipay.trade.refund'.httpStatus", equalTo(504))
                .body("methods.'alipay.trade.refund'.afterEffect", equalTo(true));

        assertThrows(AlipayApiException.class, () -> refund(client, outTradeNo, "7.00", "G1"));
        AlipayTradeFastpayRefundQueryResponse query = refundQuery(client, outTradeNo, "G1");
        assertEquals("REFUND_SUCCESS", query.getRefundStatus());
        assertEquals("7.00", query.getRefundAmount());
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, trades.trade(outTradeNo).orElseThrow().status());
    }

    @Test
    void afterEffectIsOffUnlessAskedForAndRefusedForAHeldBackAnswer() {
        given().contentType(ContentType.JSON)
                .body(Map.of("methods", Map.of(REFUND, Map.of("httpStatus", 502))))
                .put("/sandbox/alipay/faults")
                .then().statusCode(200)
                .body("methods.'alipay.trade.refund'.afterEffect", equalTo(false));
        assertEquals(false, faults.methodFaults().get(REFUND).afterEffect());

        given().contentType(ContentType.JSON)
                .body(Map.of("methods", Map.of(REFUND, Map.of("noAnswerFor", "5s", "afterEffect", true))))
                .put("/sandbox/alipay/faults")
                .then().statusCode(400);
        assertThrows(IllegalArgumentException.class,
                () -> MethodFault.noAnswerFor(Duration.ofSeconds(5)).withAfterEffect());
    }

    @Test
    void faultBeforeTheRefundLeavesTheTradeUnrefunded() throws Exception {
        String outTradeNo = paidTrade("6.00");
        faults.failFor(outTradeNo, REFUND, MethodFault.systemError(), 1);

        assertEquals("ACQ.SYSTEM_ERROR", refund(client, outTradeNo, "2.00", "B1").getSubCode());
        AlipayTradeFastpayRefundQueryResponse query = refundQuery(client, outTradeNo, "B1");
        assertEquals("10000", query.getCode());
        assertNotRefunded(query);
        assertEquals(List.of(), trades.trade(outTradeNo).orElseThrow().refunds());

        assertEquals("Y", refund(client, outTradeNo, "2.00", "B1").getFundChange());
    }

    private static void assertNotRefunded(AlipayTradeFastpayRefundQueryResponse query) {
        assertNull(query.getRefundAmount());
        assertNull(query.getRefundStatus());
        assertNull(query.getGmtRefundPay());
    }
}
