package com.shop.orders.payment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import com.shop.orders.payment.AlipayReplies.CancelResult;
import com.shop.orders.payment.AlipayReplies.CloseResult;
import com.shop.orders.payment.PaymentConfirmation.Outcome;
import com.shop.orders.payment.PaymentConfirmation.Source;

import io.smallrye.mutiny.Uni;

/** What closing an order's trade at Alipay comes to, for every answer Alipay can give. */
class TradeCloserTest {

    private static final Duration WAIT = Duration.ofSeconds(1);

    private final AlipayGateway alipay = mock(AlipayGateway.class);
    private final PaymentConfirmation confirmation = mock(PaymentConfirmation.class);
    private final PaymentRefunds refunds = mock(PaymentRefunds.class);
    private final TradeCloser closer = new TradeCloser(mock(PaymentRepository.class), alipay, confirmation, refunds);

    @Test
    void aScannedTradeIsClosed() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.CLOSED));
        assertEquals(TradeCloser.Closure.CLOSED, close());
        verify(alipay, never()).cancel(any());
    }

    @Test
    void anUnscannedQrCodeIsVoided() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_EXIST));
        when(alipay.cancel("N1")).thenReturn(Uni.createFrom().item(CancelResult.CLOSED));
        assertEquals(TradeCloser.Closure.CLOSED, close());
    }

    @Test
    void aQrCodePaidWhileBeingVoidedIsRecordedAsRefundedByAlipay() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_EXIST));
        when(alipay.cancel("N1")).thenReturn(Uni.createFrom().item(CancelResult.REFUNDED));
        when(refunds.recordCancelRefund(any())).thenReturn(Uni.createFrom().voidItem());
        assertEquals(TradeCloser.Closure.REFUNDED, close());
        verify(refunds).recordCancelRefund(any());
    }

    @Test
    void aTradeThatCannotBeClosedIsAskedAbout() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_CLOSABLE));
        when(alipay.query("N1")).thenReturn(Uni.createFrom().item(trade(TradeStatus.TRADE_CLOSED)));
        assertEquals(TradeCloser.Closure.CLOSED, close());
    }

    @Test
    void aPaidTradeMakesThePaymentRecordedInsteadOfTheOrderClosed() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_CLOSABLE));
        when(alipay.query("N1")).thenReturn(Uni.createFrom().item(trade(TradeStatus.TRADE_SUCCESS)));
        when(confirmation.confirm(any(), any())).thenReturn(Uni.createFrom().item(Outcome.PAID_NOW));
        assertEquals(TradeCloser.Closure.PAID, close());
        verify(confirmation).confirm(new PaidTrade("N1", "T1", new BigDecimal("5.00"), null), Source.QUERY);
    }

    @Test
    void aPaymentThatIsNotAcceptedKeepsTheOrderOpen() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_CLOSABLE));
        when(alipay.query("N1")).thenReturn(Uni.createFrom().item(trade(TradeStatus.TRADE_SUCCESS)));
        when(confirmation.confirm(any(), any())).thenReturn(Uni.createFrom().item(Outcome.AMOUNT_MISMATCH));
        assertThrows(IllegalStateException.class, this::close);
    }

    @Test
    void anOpenTradeAlipayWillNotCloseIsAFailureToRetry() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_CLOSABLE));
        when(alipay.query("N1")).thenReturn(Uni.createFrom().item(trade(TradeStatus.WAIT_BUYER_PAY)));
        assertThrows(IllegalStateException.class, this::close);
    }

    @Test
    void alipayUnreachableIsAFailureToRetry() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().failure(PaymentGatewayException.unavailable("close",
                new RuntimeException("timeout"))));
        assertThrows(PaymentGatewayException.class, this::close);
    }

    private TradeCloser.Closure close() {
        Payment payment = new Payment();
        payment.orderId = 1L;
        payment.orderNo = "N1";
        payment.amount = new BigDecimal("5.00");
        return closer.closeTrade(payment).await().atMost(WAIT);
    }

    private static Trade trade(TradeStatus status) {
        return new Trade("N1", status, "T1", new BigDecimal("5.00"), null);
    }
}
