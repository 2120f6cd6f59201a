package com.shop.orders.payment.wechat;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeClosing;
import com.shop.orders.payment.TradeState;
import com.shop.orders.sandbox.wechat.WechatFaults;
import com.shop.orders.sandbox.wechat.WechatTradeView;
import com.shop.orders.sandbox.wechat.WechatTrades;
import com.shop.orders.testsupport.TestDb;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * WechatChannel against the WeChat sandbox through the official SDK, signed both ways: a code offered, scanned and
 * paid; closes of open, paid and unknown trades; WeChat's faults as the core sees them (503 to try again, 502
 * refused or not trusted), each call in the order's timeline and the channel's metrics.
 */
@QuarkusTest
class WechatChannelTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    WechatChannel channel;

    @Inject
    WechatFaults faults;

    @Inject
    WechatTrades trades;

    @Inject
    MeterRegistry registry;

    @BeforeEach
    void noNotifies() {
        // No order stands behind these trades: the notifies the payments would send are the notify tests' business.
        faults.dropNotifies(true);
    }

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void aCodeOfferedScannedAndPaidIsAPaidTrade() {
        String orderNo = orderNo();
        String outTradeNo = channel.outTradeNoOf(orderNo);
        Instant payBy = Instant.now().plus(Duration.ofMinutes(15));
        String codeUrl = offer(outTradeNo, "12.34", "Order " + orderNo, payBy);
        assertTrue(codeUrl.startsWith("weixin://wxpay/bizpayurl?pr="), codeUrl);
        WechatTradeView offered = trades.trade(outTradeNo).orElseThrow();
        assertEquals(1234, offered.total());
        assertEquals("Order " + orderNo, offered.description());
        // time_expire is the pay-by time in Beijing time, to the second.
        assertEquals(payBy.truncatedTo(ChronoUnit.SECONDS), offered.expiresAt());

        Trade waiting = query(outTradeNo);
        assertEquals(TradeState.WAITING, waiting.state());
        assertEquals("NOTPAY", waiting.walletStatus());
        buyer("scan", codeUrl).statusCode(200);
        buyer("pay", codeUrl).statusCode(200).body("tradeState", equalTo("SUCCESS"));

        Trade paid = query(outTradeNo);
        assertEquals(TradeState.PAID, paid.state());
        assertEquals("SUCCESS", paid.walletStatus());
        assertEquals(outTradeNo, paid.outTradeNo());
        assertEquals(new BigDecimal("12.34"), paid.totalAmount());
        assertEquals(trades.trade(outTradeNo).orElseThrow().transactionId(), paid.tradeNo());
        assertNotNull(paid.paidAt());

        // Each call is in the order's timeline (the order number without the channel's W) and the channel's metrics.
        await().atMost(WAIT).until(() -> TestDb.count("SELECT COUNT(*) FROM order_event WHERE order_no = ? "
                + "AND kind = 'WECHAT_CALL' AND outcome = 'success'", orderNo) == 3);
        assertTrue(registry.get("wechat.calls").tags("method", "prepay", "outcome", "success").timer().count() > 0);
    }

    @Test
    void aClosedCodeCannotBePaidAndClosingIsTheSameAgain() {
        String outTradeNo = channel.outTradeNoOf(orderNo());
        String codeUrl = offer(outTradeNo, "5.00", "Order", Instant.now().plus(Duration.ofMinutes(15)));
        assertEquals(TradeClosing.closed(), close(outTradeNo));
        assertEquals(TradeState.CLOSED, query(outTradeNo).state());
        buyer("pay", codeUrl).statusCode(409).body("error", equalTo("the trade is closed"));
        assertEquals(TradeClosing.closed(), close(outTradeNo));
        // A code that was never shown is withdrawn the same way.
        String withdrawn = channel.outTradeNoOf(orderNo());
        String unshown = offer(withdrawn, "5.00", "Order", Instant.now().plus(Duration.ofMinutes(15)));
        channel.withdraw(withdrawn).await().atMost(WAIT);
        buyer("scan", unshown).statusCode(409);
    }

    @Test
    void aPaidTradeIsNotClosedButReportedPaid() {
        String outTradeNo = channel.outTradeNoOf(orderNo());
        buyer("pay", offer(outTradeNo, "8.80", "Order", Instant.now().plus(Duration.ofMinutes(15)))).statusCode(200);
        TradeClosing closing = close(outTradeNo);
        assertEquals(TradeClosing.Result.PAID, closing.result());
        assertEquals(TradeState.PAID, closing.trade().state());
        assertEquals(new BigDecimal("8.80"), closing.trade().totalAmount());
        assertEquals("SUCCESS", trades.trade(outTradeNo).orElseThrow().tradeState());
    }

    @Test
    void aTradeWechatNeverHadIsNotFoundAndClosed() {
        String outTradeNo = channel.outTradeNoOf(orderNo());
        assertEquals(Trade.notFound(outTradeNo), query(outTradeNo));
        assertEquals(TradeClosing.closed(), close(outTradeNo));
        assertTrue(registry.get("wechat.calls").tags("method", "query", "outcome", "ORDER_NOT_EXIST").timer()
                .count() > 0);
    }

    @Test
    void wechatBusyOrFailingIsAnOutageToTryAgain() {
        String outTradeNo = channel.outTradeNoOf(orderNo());
        offer(outTradeNo, "3.00", "Order", Instant.now().plus(Duration.ofMinutes(15)));
        // Set over HTTP, as an operator would: two answers, 500 SYSTEM_ERROR then 429.
        setFaults(Map.of("methods", Map.of("query", Map.of("httpStatus", 500, "times", 1))));
        PaymentGatewayException failing = queryFails(outTradeNo);
        assertEquals(503, failing.status());
        assertTrue(failing.getMessage().contains("SYSTEM_ERROR"), failing.getMessage());
        setFaults(Map.of("methods", Map.of("query", Map.of("httpStatus", 429, "times", 1))));
        assertEquals(503, queryFails(outTradeNo).status());
        // Held past the client's read time-out: nobody knows.
        setFaults(Map.of("methods", Map.of("query", Map.of("noAnswerFor", "4s", "times", 1))));
        PaymentGatewayException late = queryFails(outTradeNo);
        assertEquals(503, late.status());
        assertEquals("Payment provider unavailable", late.title());
        assertEquals(TradeState.WAITING, query(outTradeNo).state());
    }

    @Test
    void aRefusedCallIsA502WithWechatsCode() {
        setFaults(Map.of("methods", Map.of("prepay", Map.of("httpStatus", 400, "code", "PARAM_ERROR", "times", 1))));
        String outTradeNo = channel.outTradeNoOf(orderNo());
        PaymentGatewayException refused = assertThrows(PaymentGatewayException.class,
                () -> offer(outTradeNo, "3.00", "Order", Instant.now().plus(Duration.ofMinutes(15))));
        assertEquals(502, refused.status());
        assertEquals("PARAM_ERROR", refused.extensions().get("providerCode"));
        assertTrue(trades.trade(outTradeNo).isEmpty());
    }

    @Test
    void answersUnderAnotherSerialAreNotTrustedAndSkewedOnesUnknown() {
        String outTradeNo = channel.outTradeNoOf(orderNo());
        offer(outTradeNo, "3.00", "Order", Instant.now().plus(Duration.ofMinutes(15)));
        faults.wrongSerial(true);
        PaymentGatewayException untrusted = queryFails(outTradeNo);
        assertEquals(502, untrusted.status());
        assertEquals("Payment provider answer not trusted", untrusted.title());
        faults.wrongSerial(false);
        // WeChat's SDK refuses answers signed five minutes or more off its clock: whether the call took effect is
        // unknown.
        faults.skewTimestamps(Duration.ofSeconds(301));
        assertEquals(503, queryFails(outTradeNo).status());
        faults.skewTimestamps(Duration.ofSeconds(-299));
        assertEquals(TradeState.WAITING, query(outTradeNo).state());
    }

    @Test
    void aRefundIsMadeOnceAndTheQueryTellsWhenItIs() {
        String outTradeNo = channel.outTradeNoOf(orderNo());
        buyer("pay", offer(outTradeNo, "10.00", "Order", Instant.now().plus(Duration.ofMinutes(15)))).statusCode(200);
        String refundNo = outTradeNo + "R1";

        // Accepted, not made yet (PROCESSING): no answer the core could record, the refund query tells later.
        PaymentGatewayException processing = assertThrows(PaymentGatewayException.class, () -> refund(outTradeNo,
                "10.00", "4.00", refundNo));
        assertEquals(503, processing.status());
        await().atMost(WAIT).until(() -> made(outTradeNo, refundNo));
        // The same number again refunds nothing twice, and now says it is done.
        RefundAnswer done = refund(outTradeNo, "10.00", "4.00", refundNo);
        assertTrue(done.done());
        assertEquals(400, trades.trade(outTradeNo).orElseThrow().refunded());
        Trade refunded = query(outTradeNo);
        assertEquals(TradeState.PAID, refunded.state());
        assertEquals("REFUND", refunded.walletStatus());
        assertFalse(channel.refundMade(outTradeNo, outTradeNo + "R2").await().atMost(WAIT));
    }

    @Test
    void aRefundWechatWillNotMakeIsRefusedForGood() {
        String unpaid = channel.outTradeNoOf(orderNo());
        offer(unpaid, "10.00", "Order", Instant.now().plus(Duration.ofMinutes(15)));
        RefundAnswer notPaid = refund(unpaid, "10.00", "1.00", unpaid + "R1");
        assertFalse(notPaid.done());
        assertEquals("INVALID_REQUEST", notPaid.code());
        assertEquals("订单未支付，不能退款", notPaid.reason());

        String paid = channel.outTradeNoOf(orderNo());
        buyer("pay", offer(paid, "10.00", "Order", Instant.now().plus(Duration.ofMinutes(15)))).statusCode(200);
        assertFalse(refund(paid, "10.00", "10.01", paid + "R1").done());
    }

    @Test
    void aRefundWhoseAnswerIsLostIsFoundOrNotByTheQuery() {
        String paid = channel.outTradeNoOf(orderNo());
        buyer("pay", offer(paid, "10.00", "Order", Instant.now().plus(Duration.ofMinutes(15)))).statusCode(200);
        // Rate-limited before WeChat took it, or answered 5xx after: either way the outcome is unknown at first.
        setFaults(Map.of("methods", Map.of("refund", Map.of("httpStatus", 429, "times", 1))));
        assertEquals(503, assertThrows(PaymentGatewayException.class,
                () -> refund(paid, "10.00", "1.00", paid + "R1")).status());
        assertFalse(channel.refundMade(paid, paid + "R1").await().atMost(WAIT));
        setFaults(Map.of("methods", Map.of("refund", Map.of("httpStatus", 500, "afterEffect", true, "times", 1))));
        assertEquals(503, assertThrows(PaymentGatewayException.class,
                () -> refund(paid, "10.00", "2.00", paid + "R2")).status());
        await().atMost(WAIT).until(() -> made(paid, paid + "R2"));
        assertEquals(200, trades.trade(paid).orElseThrow().refunded());
    }

    private RefundAnswer refund(String outTradeNo, String tradeAmount, String amount, String refundNo) {
        return channel.refund(outTradeNo, new BigDecimal(tradeAmount), new BigDecimal(amount), refundNo).await()
                .atMost(WAIT);
    }

    /** Made; false while WeChat is still processing it (the channel then fails: not known yet). */
    private boolean made(String outTradeNo, String refundNo) {
        try {
            return channel.refundMade(outTradeNo, refundNo).await().atMost(WAIT);
        } catch (PaymentGatewayException processing) {
            assertEquals(503, processing.status());
            return false;
        }
    }

    private String offer(String outTradeNo, String amount, String subject, Instant payBy) {
        return channel.offer(outTradeNo, new BigDecimal(amount), subject, payBy).await().atMost(WAIT);
    }

    private Trade query(String outTradeNo) {
        return channel.query(outTradeNo).await().atMost(WAIT);
    }

    private PaymentGatewayException queryFails(String outTradeNo) {
        return assertThrows(PaymentGatewayException.class, () -> query(outTradeNo));
    }

    private TradeClosing close(String outTradeNo) {
        return channel.close(outTradeNo).await().atMost(WAIT);
    }

    private static void setFaults(Map<String, Object> settings) {
        given().contentType(ContentType.JSON).body(settings).put("/sandbox/wechat/faults").then().statusCode(200);
    }

    private static ValidatableResponse buyer(String action, String codeUrl) {
        return given().contentType(ContentType.JSON).body(Map.of("codeUrl", codeUrl))
                .post("/sandbox/wechat/buyer/" + action).then();
    }

    /** An order number as the service makes them: 24 digits. */
    static String orderNo() {
        StringBuilder digits = new StringBuilder("2026");
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 20; i++) {
            digits.append(random.nextInt(10));
        }
        return digits.toString();
    }
}
