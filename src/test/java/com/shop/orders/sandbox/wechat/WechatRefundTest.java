package com.shop.orders.sandbox.wechat;

import static com.shop.orders.sandbox.wechat.WechatRequests.buyer;
import static com.shop.orders.sandbox.wechat.WechatRequests.outTradeNo;
import static com.shop.orders.sandbox.wechat.WechatRequests.prepay;
import static com.shop.orders.sandbox.wechat.WechatRequests.query;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.wechat.pay.java.core.RSAPublicKeyConfig;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.nativepay.NativePayService;
import com.wechat.pay.java.service.refund.RefundService;
import com.wechat.pay.java.service.refund.model.AmountReq;
import com.wechat.pay.java.service.refund.model.CreateRequest;
import com.wechat.pay.java.service.refund.model.QueryByOutRefundNoRequest;
import com.wechat.pay.java.service.refund.model.Refund;
import com.wechat.pay.java.service.refund.model.RefundNotification;
import com.wechat.pay.java.service.refund.model.Status;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * The sandbox's refunds as the official SDK's RefundService meets them: PROCESSING then SUCCESS, notified only when
 * asked, idempotent per out_refund_no, within what was paid and WeChat's 50 per trade, with WeChat's codes, and the
 * fault knobs (a refund made but answered 500 is found by the query).
 */
@QuarkusTest
class WechatRefundTest {

    @Inject
    WechatSandboxKeys keys;

    @Inject
    WechatFaults faults;

    @Inject
    WechatTrades trades;

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    private RSAPublicKeyConfig sdk;
    private NativePayService payments;
    private RefundService refunds;

    @BeforeEach
    void clients() {
        // Most cases make refunds of one trade back to back; WeChat's interval has a case of its own.
        faults.refundInterval(Duration.ZERO);
        sdk = WechatSandboxClients.config(keys, WechatRequests.MCHID);
        payments = WechatSandboxClients.nativePay(sdk, port, Duration.ofSeconds(10));
        refunds = new RefundService.Builder()
                .httpClient(WechatSandboxClients.httpClient(sdk, port, Duration.ofSeconds(2))).build();
    }

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void aRefundIsProcessingThenSucceedsAndIsNotified() throws Exception {
        try (WechatNotifyReceiver<RefundNotification> receiver = new WechatNotifyReceiver<>(
                WechatSandboxClients.notificationParser(sdk), RefundNotification.class, 1)) {
            String no = paidTrade(1000);
            String refundNo = refundNo();
            Refund accepted = refunds.create(refund(no, refundNo, 300, 1000, receiver.url()));
            assertEquals(Status.PROCESSING, accepted.getStatus());
            assertEquals(refundNo, accepted.getOutRefundNo());
            assertEquals(no, accepted.getOutTradeNo());
            assertEquals(300L, accepted.getAmount().getRefund());
            assertEquals(1000L, accepted.getAmount().getTotal());
            assertNotNull(accepted.getRefundId());
            assertNull(accepted.getSuccessTime());
            assertEquals(Transaction.TradeStateEnum.REFUND, query(payments, no).getTradeState());

            await().atMost(Duration.ofSeconds(10)).until(() -> queryRefund(refundNo).getStatus() == Status.SUCCESS);
            Refund done = queryRefund(refundNo);
            assertEquals(accepted.getRefundId(), done.getRefundId());
            assertNotNull(done.getSuccessTime());
            // The first notify is answered 500: WeChat tries again.
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 2
                    && trades.refund(refundNo).orElseThrow().notifyAcknowledged());
            RefundNotification notified = receiver.received().get(0);
            assertEquals(Status.SUCCESS, notified.getRefundStatus());
            assertEquals(refundNo, notified.getOutRefundNo());
            assertEquals(accepted.getRefundId(), notified.getRefundId());
            assertEquals(300L, notified.getAmount().getRefund());
            assertEquals(List.of(), receiver.refused());

            WechatTradeView trade = trades.trade(no).orElseThrow();
            assertEquals("REFUND", trade.tradeState());
            assertEquals(300, trade.refunded());
            assertEquals(refundNo, trade.refunds().get(0).outRefundNo());
        }
    }

    @Test
    void oneNumberRefundsOnceAndNoMoreThanWasPaid() {
        String no = paidTrade(1000);
        String first = refundNo();
        Refund made = refunds.create(refund(no, first, 600, 1000, null));
        // Asked again (a retry after a timeout): the same refund, no second movement of money.
        assertEquals(made.getRefundId(), refunds.create(refund(no, first, 600, 1000, null)).getRefundId());
        assertEquals(600, trades.trade(no).orElseThrow().refunded());
        assertInvalid("订单金额或退款金额与之前请求不一致", () -> refunds.create(refund(no, first, 500, 1000, null)));

        assertInvalid("超过订单可退金额", () -> refunds.create(refund(no, refundNo(), 401, 1000, null)));
        refunds.create(refund(no, refundNo(), 400, 1000, null));
        assertInvalid("订单已全额退款", () -> refunds.create(refund(no, refundNo(), 1, 1000, null)));
        assertEquals(1000, trades.trade(no).orElseThrow().refunded());

        // A paid trade cannot be closed, refunded or not; nor paid again.
        assertEquals("ORDERPAID", assertThrows(ServiceException.class,
                () -> payments.closeOrder(WechatRequests.close(no))).getErrorCode());
    }

    @Test
    void aTradeTakesFiftyRefundsAtMost() {
        String no = paidTrade(100);
        for (int i = 0; i < WechatTrade.MAX_REFUNDS; i++) {
            refunds.create(refund(no, refundNo(), 1, 100, null));
        }
        assertInvalid("退款次数", () -> refunds.create(refund(no, refundNo(), 1, 100, null)));
        assertEquals(WechatTrade.MAX_REFUNDS, trades.trade(no).orElseThrow().refunded());
    }

    @Test
    void refundsWechatRefusesChangeNothing() {
        String unpaid = outTradeNo();
        payments.prepay(prepay(unpaid, 500, "https://shop.example/notify"));
        assertInvalid("未支付", () -> refunds.create(refund(unpaid, refundNo(), 100, 500, null)));

        String paid = paidTrade(500);
        ServiceException total = assertThrows(ServiceException.class,
                () -> refunds.create(refund(paid, refundNo(), 100, 499, null)));
        assertEquals("PARAM_ERROR", total.getErrorCode());
        for (String bad : new String[] { "R#1", "", "R".repeat(65) }) {
            ServiceException refused = assertThrows(ServiceException.class,
                    () -> refunds.create(refund(paid, bad, 100, 500, null)));
            assertEquals("PARAM_ERROR", refused.getErrorCode(), bad);
        }
        CreateRequest noTrade = refund(paid, refundNo(), 100, 500, null);
        noTrade.setOutTradeNo(null);
        assertEquals("PARAM_ERROR", assertThrows(ServiceException.class, () -> refunds.create(noTrade))
                .getErrorCode());
        assertEquals(0, trades.trade(paid).orElseThrow().refunded());

        ServiceException unknownTrade = assertThrows(ServiceException.class,
                () -> refunds.create(refund(outTradeNo(), refundNo(), 100, 500, null)));
        assertEquals(404, unknownTrade.getHttpStatusCode());
        assertEquals("RESOURCE_NOT_EXISTS", unknownTrade.getErrorCode());
        ServiceException unknownRefund = assertThrows(ServiceException.class, () -> queryRefund(refundNo()));
        assertEquals(404, unknownRefund.getHttpStatusCode());
        assertEquals("RESOURCE_NOT_EXISTS", unknownRefund.getErrorCode());
    }

    @Test
    void aRefundByTransactionIdWithoutNotifyUrlIsNotNotified() {
        String no = paidTrade(800);
        CreateRequest byId = refund(no, refundNo(), 800, 800, null);
        byId.setOutTradeNo(null);
        byId.setTransactionId(query(payments, no).getTransactionId());
        Refund made = refunds.create(byId);
        assertEquals(no, made.getOutTradeNo());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> queryRefund(made.getOutRefundNo()).getStatus() == Status.SUCCESS);
        WechatRefundView view = trades.refund(made.getOutRefundNo()).orElseThrow();
        assertFalse(view.notified());
        assertEquals(0, view.notifyAttempts());
    }

    @Test
    void aRefundAnsweredWithAnErrorAfterTheEffectIsFoundByTheQuery() {
        String no = paidTrade(700);
        String refundNo = refundNo();
        faults.arm(WechatRefunds.REFUND, new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统错误", null, true), 1);
        ServiceException unheard = assertThrows(ServiceException.class,
                () -> refunds.create(refund(no, refundNo, 700, 700, null)));
        assertEquals(500, unheard.getHttpStatusCode());
        assertEquals(refundNo, queryRefund(refundNo).getOutRefundNo());
        // The retry with the same number finds it made: still one refund.
        refunds.create(refund(no, refundNo, 700, 700, null));
        assertEquals(1, trades.trade(no).orElseThrow().refunds().size());

        String before = refundNo();
        faults.arm(WechatRefunds.REFUND, new WechatFaults.Fault(403, "NOT_ENOUGH", "余额不足", null, false), 1);
        assertEquals("NOT_ENOUGH", assertThrows(ServiceException.class,
                () -> refunds.create(refund(paidTrade(100), before, 100, 100, null))).getErrorCode());
        assertTrue(trades.refund(before).isEmpty());

        faults.arm(WechatRefunds.REFUND_QUERY, new WechatFaults.Fault(null, null, null, Duration.ofSeconds(3), false),
                1);
        assertThrows(RuntimeException.class, () -> queryRefund(refundNo));
        assertEquals(2, trades.calls(WechatRefunds.REFUND_QUERY, refundNo));
        assertEquals(2, trades.calls(WechatRefunds.REFUND, refundNo));
    }

    @Test
    void refundsOfOneTradeComeAnIntervalApart() {
        faults.refundInterval(Duration.ofSeconds(2));
        String no = paidTrade(1000);
        refunds.create(refund(no, refundNo(), 100, 1000, null));
        String tooSoon = refundNo();
        ServiceException limited = assertThrows(ServiceException.class,
                () -> refunds.create(refund(no, tooSoon, 100, 1000, null)));
        assertEquals(429, limited.getHttpStatusCode());
        assertEquals("FREQUENCY_LIMITED", limited.getErrorCode());
        assertTrue(trades.refund(tooSoon).isEmpty());
        // Another trade is not held up; the first one's again after the interval.
        refunds.create(refund(paidTrade(100), refundNo(), 100, 100, null));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> refunds.create(refund(no, tooSoon, 100, 1000, null)) != null);
        assertEquals(200, trades.trade(no).orElseThrow().refunded());
    }

    @Test
    void anAbnormalRefundWaitsForThePersonWhoResolvesItInTheConsole() throws Exception {
        try (WechatNotifyReceiver<RefundNotification> receiver = new WechatNotifyReceiver<>(
                WechatSandboxClients.notificationParser(sdk), RefundNotification.class, 0)) {
            faults.abnormalRefunds(2);
            String no = paidTrade(1000);
            String stuck = refundNo();
            String closed = refundNo();
            assertEquals(Status.PROCESSING, refunds.create(refund(no, stuck, 300, 1000, receiver.url())).getStatus());
            refunds.create(refund(no, closed, 700, 1000, receiver.url()));
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 2);
            assertEquals(Status.ABNORMAL, queryRefund(stuck).getStatus());
            assertEquals(Status.ABNORMAL, receiver.received().get(0).getRefundStatus());
            // Both still take their amounts: nothing is left.
            assertInvalid("订单已全额退款", () -> refunds.create(refund(no, refundNo(), 1, 1000, null)));

            merchant(stuck, "SUCCESS").statusCode(200).body("status", equalTo("SUCCESS"));
            merchant(closed, "CLOSED").statusCode(200).body("status", equalTo("CLOSED"));
            merchant(closed, "SUCCESS").statusCode(409);
            merchant(refundNo(), "SUCCESS").statusCode(404);
            await().atMost(Duration.ofSeconds(10)).until(() -> receiver.received().size() >= 4);
            assertEquals(Status.SUCCESS, queryRefund(stuck).getStatus());
            assertNotNull(queryRefund(stuck).getSuccessTime());
            assertEquals(Status.CLOSED, queryRefund(closed).getStatus());
            assertEquals(Set.of(Status.SUCCESS, Status.CLOSED), receiver.received().subList(2, 4).stream()
                    .map(RefundNotification::getRefundStatus).collect(Collectors.toSet()));
            // A closed refund gives its amount back to the trade, and does not count against the 50.
            assertEquals(300, trades.trade(no).orElseThrow().refunded());
            refunds.create(refund(no, refundNo(), 700, 1000, null));
            await().atMost(Duration.ofSeconds(10)).until(() -> trades.trade(no).orElseThrow().refunds().stream()
                    .filter(r -> r.status().equals("SUCCESS")).count() == 2);
            assertEquals(0, faults.abnormalRefunds());
        }
    }

    private static ValidatableResponse merchant(String outRefundNo, String status) {
        return given().contentType(ContentType.JSON).body(Map.of("outRefundNo", outRefundNo, "status", status))
                .post("/sandbox/wechat/merchant/refund/resolve").then();
    }

    private String paidTrade(int fen) {
        String no = outTradeNo();
        buyer("pay", payments.prepay(prepay(no, fen, "https://shop.example/notify")).getCodeUrl()).statusCode(200);
        return no;
    }

    private Refund queryRefund(String outRefundNo) {
        QueryByOutRefundNoRequest request = new QueryByOutRefundNoRequest();
        request.setOutRefundNo(outRefundNo);
        return refunds.queryByOutRefundNo(request);
    }

    private static CreateRequest refund(String outTradeNo, String outRefundNo, long fen, long total,
            String notifyUrl) {
        CreateRequest request = new CreateRequest();
        request.setOutTradeNo(outTradeNo);
        request.setOutRefundNo(outRefundNo);
        request.setReason("sandbox test");
        request.setNotifyUrl(notifyUrl);
        AmountReq amount = new AmountReq();
        amount.setRefund(fen);
        amount.setTotal(total);
        amount.setCurrency("CNY");
        request.setAmount(amount);
        return request;
    }

    /** With two of the characters the SDK percent-encodes in the query's path. */
    private static String refundNo() {
        return "R" + UUID.randomUUID().toString().replace("-", "").substring(0, 16) + "@x|";
    }

    private static void assertInvalid(String message, org.junit.jupiter.api.function.Executable call) {
        ServiceException refused = assertThrows(ServiceException.class, call);
        assertEquals(400, refused.getHttpStatusCode());
        assertEquals("INVALID_REQUEST", refused.getErrorCode());
        assertTrue(refused.getErrorMessage().contains(message), refused.getErrorMessage());
    }
}
