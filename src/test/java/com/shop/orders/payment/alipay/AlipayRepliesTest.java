package com.shop.orders.payment.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Date;

import org.junit.jupiter.api.Test;

import com.alipay.api.AlipayApiErrorEnum;
import com.alipay.api.AlipayApiException;

import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeState;
import com.shop.orders.payment.alipay.AlipayReplies.CancelResult;
import com.shop.orders.payment.alipay.AlipayReplies.CloseResult;

/** How Alipay's answers are read, code by code. */
class AlipayRepliesTest {

    @Test
    void onlyCode10000IsSuccess() {
        assertEquals("success", AlipayReplies.outcome("10000", null));
        // The SDK's isSuccess() would say yes to this one: no sub_code.
        assertEquals("20000", AlipayReplies.outcome("20000", null));
        assertEquals("ACQ.SYSTEM_ERROR", AlipayReplies.outcome("20000", "ACQ.SYSTEM_ERROR"));
    }

    @Test
    void closeAnswers() {
        assertEquals(CloseResult.CLOSED, AlipayReplies.close("10000", null));
        assertEquals(CloseResult.NOT_EXIST, AlipayReplies.close("40004", "ACQ.TRADE_NOT_EXIST"));
        assertEquals(CloseResult.NOT_CLOSABLE, AlipayReplies.close("40004", "ACQ.TRADE_STATUS_ERROR"));
        assertNull(AlipayReplies.close("20000", "ACQ.SYSTEM_ERROR"));
        assertNull(AlipayReplies.close("40004", "ACQ.INVALID_PARAMETER"));
    }

    @Test
    void cancelAnswersByAction() {
        assertEquals(CancelResult.CLOSED, AlipayReplies.cancel("10000", null, "close"));
        assertEquals(CancelResult.REFUNDED, AlipayReplies.cancel("10000", null, "refund"));
        assertEquals(CancelResult.NOT_EXIST, AlipayReplies.cancel("40004", "ACQ.TRADE_NOT_EXIST", null));
        assertNull(AlipayReplies.cancel("10000", null, null));
        assertNull(AlipayReplies.cancel("40004", "ACQ.SYSTEM_ERROR", "close"));
    }

    @Test
    void queryAnswers() {
        Date paidAt = new Date(1_700_000_000_000L);
        Trade paid = AlipayReplies.trade("N1", "10000", null, "TRADE_SUCCESS", "T1", "12.30", paidAt);
        assertEquals(new Trade("N1", TradeState.PAID, "TRADE_SUCCESS", "T1", new BigDecimal("12.30"),
                paidAt.toInstant()), paid);
        assertEquals(TradeState.PAID, AlipayReplies.trade("N1", "10000", null, "TRADE_FINISHED", "T1", "12.30", paidAt)
                .state());
        assertEquals(TradeState.NOT_FOUND, AlipayReplies.trade("N1", "40004", "ACQ.TRADE_NOT_EXIST", null, null, null,
                null).state());
        assertEquals(TradeState.WAITING, AlipayReplies.trade("N1", "10000", null, "WAIT_BUYER_PAY", "T1",
                "12.30", null).state());
        assertEquals(TradeState.CLOSED, AlipayReplies.trade("N1", "10000", null, "TRADE_CLOSED", "T1",
                "12.30", null).state());
        assertNull(AlipayReplies.trade("N1", "20000", "ACQ.SYSTEM_ERROR", null, null, null, null));
        assertThrows(IllegalArgumentException.class,
                () -> AlipayReplies.trade("N1", "10000", null, "TRADE_MAYBE", "T1", "1.00", null));
    }

    @Test
    void onlySuccessAndFinishedArePaid() {
        assertEquals(java.util.List.of(TradeStatus.TRADE_SUCCESS, TradeStatus.TRADE_FINISHED),
                java.util.Arrays.stream(TradeStatus.values()).filter(TradeStatus::isPaid).toList());
        assertEquals(TradeStatus.NOT_EXIST, TradeStatus.parse(null));
    }

    @Test
    void busyAnswersAreTryAgainNotRefusals() {
        assertTrue(AlipayReplies.isTryAgain("20000", "ACQ.SYSTEM_ERROR"));
        assertTrue(AlipayReplies.isTryAgain("40004", "ACQ.SYSTEM_ERROR"));
        assertTrue(AlipayReplies.isTryAgain("20000", null));
        assertFalse(AlipayReplies.isTryAgain("40004", "ACQ.INVALID_PARAMETER"));
        assertFalse(AlipayReplies.isTryAgain("10000", null));
    }

    @Test
    void theCertificateAnAnswerCameUnderIsTheOneAfterItsNode() {
        assertEquals("a1b2c3", AlipayReplies.alipayCertSn(
                "{\"alipay_trade_query_response\":{\"code\":\"10000\",\"alipay_cert_sn\":\"inside\"},"
                        + "\"alipay_cert_sn\":\"a1b2c3\",\"sign\":\"xyz\"}"));
        assertNull(AlipayReplies.alipayCertSn("{\"alipay_trade_query_response\":{\"code\":\"10000\"},\"sign\":\"xyz\"}"));
        assertNull(AlipayReplies.alipayCertSn(null));
    }

    @Test
    void onlyTheSdksRefusalOfACertificateIsUntrusted() {
        AlipayApiException refused = new AlipayApiException(AlipayApiErrorEnum.CHECK_ALIPAY_CERT_SN_ERROR);
        assertTrue(AlipayReplies.isUntrustedCertificate(new AlipayApiException(refused)));
        assertFalse(AlipayReplies.isUntrustedCertificate(new AlipayApiException(AlipayApiErrorEnum.CHECK_CERT_ERROR)));
        assertFalse(AlipayReplies.isUntrustedCertificate(new AlipayApiException(new java.net.SocketTimeoutException())));
    }
}
