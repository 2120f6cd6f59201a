package com.shop.orders.payment.wechat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import com.wechat.pay.java.service.payments.model.Transaction;
import com.wechat.pay.java.service.payments.model.Transaction.TradeStateEnum;
import com.wechat.pay.java.service.payments.model.TransactionAmount;
import com.wechat.pay.java.service.refund.model.Amount;
import com.wechat.pay.java.service.refund.model.Refund;
import com.wechat.pay.java.service.refund.model.RefundNotification;
import com.wechat.pay.java.service.refund.model.Status;

import com.shop.orders.payment.PaidTrade;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.RefundFinding;
import com.shop.orders.payment.RefundNotice;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeState;
import com.shop.orders.payment.wechat.WechatReplies.Refusal;

/** How WeChat Pay's answers read, and its units: every case without a gateway. */
class WechatRepliesTest {

    @Test
    void amountsAreFenExactlyAndTimesBeijingRfc3339() {
        assertEquals(1999, WechatReplies.fen(new BigDecimal("19.99")));
        assertEquals(1000, WechatReplies.fen(new BigDecimal("10")));
        assertEquals(1, WechatReplies.fen(new BigDecimal("0.010")));
        assertThrows(ArithmeticException.class, () -> WechatReplies.fen(new BigDecimal("0.005")));
        assertEquals(new BigDecimal("12.34"), WechatReplies.yuan(1234));
        assertEquals("2026-06-01T16:30:05+08:00", WechatReplies.time(Instant.parse("2026-06-01T08:30:05.900Z")));
        assertEquals(Instant.parse("2026-06-01T08:30:05Z"), WechatReplies.instant("2026-06-01T16:30:05+08:00"));
        assertNull(WechatReplies.instant(null));
    }

    @Test
    void theDescriptionIsCutAt127CharactersNeverInsideOne() {
        assertEquals("Order 1", WechatReplies.description("Order 1"));
        assertEquals(127, WechatReplies.description("x".repeat(200)).length());
        String emoji = "\uD83D\uDE00".repeat(130);
        String cut = WechatReplies.description(emoji);
        assertEquals(127, cut.codePointCount(0, cut.length()));
        assertFalse(Character.isHighSurrogate(cut.charAt(cut.length() - 1)));
    }

    @Test
    void tradeStatesInTheCoresTerms() {
        assertEquals(TradeState.PAID, WechatReplies.state(TradeStateEnum.SUCCESS));
        assertEquals(TradeState.PAID, WechatReplies.state(TradeStateEnum.REFUND));
        for (TradeStateEnum waiting : new TradeStateEnum[] { TradeStateEnum.NOTPAY, TradeStateEnum.USERPAYING,
                TradeStateEnum.ACCEPT }) {
            assertEquals(TradeState.WAITING, WechatReplies.state(waiting));
        }
        for (TradeStateEnum closed : new TradeStateEnum[] { TradeStateEnum.CLOSED, TradeStateEnum.REVOKED,
                TradeStateEnum.PAYERROR }) {
            assertEquals(TradeState.CLOSED, WechatReplies.state(closed));
        }
        assertNull(WechatReplies.state(null));
    }

    @Test
    void aQueriedTransactionIsATradeAndAPaidOneAPayment() {
        Transaction paid = transaction(TradeStateEnum.SUCCESS, 1250);
        Trade trade = WechatReplies.trade("N1W", paid);
        assertEquals(new Trade("N1W", TradeState.PAID, "SUCCESS", "4200000001", new BigDecimal("12.50"),
                Instant.parse("2026-06-01T08:03:05Z")), trade);
        assertEquals(new PaidTrade("N1W", "4200000001", new BigDecimal("12.50"), Instant.parse("2026-06-01T08:03:05Z")),
                WechatReplies.paid(paid));
        assertNull(WechatReplies.trade("N1W", transaction(null, 1250)));
        Transaction noAmount = transaction(TradeStateEnum.SUCCESS, 1);
        noAmount.setAmount(null);
        assertThrows(IllegalArgumentException.class, () -> WechatReplies.paid(noAmount));
    }

    @Test
    void busyRateLimitedAndFailingAreTryAgainTheRestRefusals() {
        assertTrue(new Refusal(500, "SYSTEM_ERROR", "系统错误").isTryAgain());
        assertTrue(new Refusal(502, null, null).isTryAgain());
        assertTrue(new Refusal(429, "FREQUENCY_LIMITED", "频率超限").isTryAgain());
        assertTrue(new Refusal(403, "RATELIMIT_EXCEEDED", "").isTryAgain());
        assertTrue(new Refusal(400, "SYSTEM_ERROR", "").isTryAgain());
        assertFalse(new Refusal(404, "ORDER_NOT_EXIST", "订单不存在").isTryAgain());
        assertFalse(new Refusal(400, "ORDERPAID", "该订单已支付").isTryAgain());
        assertEquals(503, new Refusal(500, "SYSTEM_ERROR", "").failure("query").status());
        assertEquals(502, new Refusal(400, "PARAM_ERROR", "").failure("prepay").status());
        assertEquals("http_502", new Refusal(502, null, null).outcome());
        assertEquals("ORDERPAID", new Refusal(400, "ORDERPAID", "").outcome());
    }

    @Test
    void aRefundIsMadeClosedStuckOrUndecided() {
        assertEquals(new RefundAnswer(true, "SUCCESS", null, null), WechatReplies.refundAnswer(refund(Status.SUCCESS)));
        RefundAnswer closed = WechatReplies.refundAnswer(refund(Status.CLOSED));
        assertFalse(closed.done());
        assertEquals("CLOSED", closed.code());
        assertNull(WechatReplies.refundAnswer(refund(Status.PROCESSING)));
        RefundAnswer abnormal = WechatReplies.refundAnswer(refund(Status.ABNORMAL));
        assertEquals(RefundAnswer.Outcome.STUCK, abnormal.outcome());
        assertFalse(abnormal.done());
        assertNull(WechatReplies.refundAnswer(refund(null)));
        RefundAnswer refused = WechatReplies.refusedRefund(new Refusal(400, "NOT_ENOUGH", "基本账户余额不足"));
        assertEquals(new RefundAnswer(false, "NOT_ENOUGH", null, "基本账户余额不足"), refused);

        // The query: ABNORMAL is neither made nor to be sent again.
        assertEquals(RefundFinding.MADE, WechatReplies.refundFinding(Status.SUCCESS));
        assertEquals(RefundFinding.CLOSED, WechatReplies.refundFinding(Status.CLOSED));
        assertEquals(RefundFinding.ABNORMAL, WechatReplies.refundFinding(Status.ABNORMAL));
        assertNull(WechatReplies.refundFinding(Status.PROCESSING));
        assertNull(WechatReplies.refundFinding(null));
    }

    @Test
    void aRefundNotifyIsReadWithItsRefundStatus() {
        RefundNotification notification = new RefundNotification();
        notification.setOutTradeNo("202606010800000123456789W");
        notification.setOutRefundNo("202606010800000123456789-r1");
        notification.setRefundStatus(Status.ABNORMAL);
        Amount amount = new Amount();
        amount.setRefund(250L);
        amount.setTotal(1000L);
        notification.setAmount(amount);
        assertEquals(new RefundNotice("202606010800000123456789W", "202606010800000123456789-r1",
                new BigDecimal("2.50"), new BigDecimal("10.00"), RefundFinding.ABNORMAL),
                WechatReplies.refundNotice(notification));
        notification.setRefundStatus(Status.PROCESSING);
        assertThrows(IllegalArgumentException.class, () -> WechatReplies.refundNotice(notification));
        notification.setRefundStatus(Status.SUCCESS);
        notification.setAmount(null);
        assertThrows(IllegalArgumentException.class, () -> WechatReplies.refundNotice(notification));
    }

    @Test
    void tradeNumbersOfTheChannelNameTheirOrder() {
        assertEquals("202606010800000123456789W", WechatTradeNo.of("202606010800000123456789"));
        assertEquals(25, WechatTradeNo.of("202606010800000123456789").length());
        assertEquals("202606010800000123456789", WechatTradeNo.orderNoOf("202606010800000123456789W"));
        assertEquals("T123", WechatTradeNo.orderNoOf("T123"));
    }

    private static Transaction transaction(TradeStateEnum state, int fen) {
        Transaction transaction = new Transaction();
        transaction.setOutTradeNo("N1W");
        transaction.setTransactionId("4200000001");
        transaction.setTradeState(state);
        transaction.setSuccessTime("2026-06-01T16:03:05+08:00");
        TransactionAmount amount = new TransactionAmount();
        amount.setTotal(fen);
        transaction.setAmount(amount);
        return transaction;
    }

    private static Refund refund(Status status) {
        Refund refund = new Refund();
        refund.setStatus(status);
        return refund;
    }
}
