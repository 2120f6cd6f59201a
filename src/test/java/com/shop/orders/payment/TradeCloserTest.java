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

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.payment.PaymentConfirmation.Outcome;
import com.shop.orders.payment.PaymentConfirmation.Source;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;

/** What closing an order's trade comes to, for every result a wallet's close can have. */
class TradeCloserTest {

    private static final Duration WAIT = Duration.ofSeconds(1);

    private final PaymentChannel channel = mock(PaymentChannel.class);
    private final PaymentConfirmation confirmation = mock(PaymentConfirmation.class);
    private final PaymentRefunds refunds = mock(PaymentRefunds.class);
    private final PaymentChannels channels = mock(PaymentChannels.class);
    private final TradeCloser closer = new TradeCloser(mock(PaymentRepository.class), channels, confirmation, refunds,
            new SimpleMeterRegistry());

    @BeforeEach
    void oneChannel() {
        when(channels.of("wallet")).thenReturn(channel);
    }

    @Test
    void aClosedTradeLetsTheOrderClose() {
        when(channel.close("N1")).thenReturn(Uni.createFrom().item(TradeClosing.closed()));
        assertEquals(TradeCloser.Closure.CLOSED, close());
        verify(refunds, never()).recordCancelRefund(any());
        verify(confirmation, never()).confirm(any(), any());
    }

    @Test
    void aTradeTheWalletReversedIsRecordedAsRefunded() {
        when(channel.close("N1")).thenReturn(Uni.createFrom().item(TradeClosing.reversed()));
        when(refunds.recordCancelRefund(any())).thenReturn(Uni.createFrom().voidItem());
        assertEquals(TradeCloser.Closure.REFUNDED, close());
        verify(refunds).recordCancelRefund(any());
    }

    @Test
    void aPaidTradeMakesThePaymentRecordedInsteadOfTheOrderClosed() {
        when(channel.close("N1")).thenReturn(Uni.createFrom().item(TradeClosing.paid(paidTrade())));
        when(confirmation.confirm(any(), any())).thenReturn(Uni.createFrom().item(Outcome.PAID_NOW));
        assertEquals(TradeCloser.Closure.PAID, close());
        verify(confirmation).confirm(new PaidTrade("N1", "T1", new BigDecimal("5.00"), null), Source.QUERY);
    }

    @Test
    void aPaymentThatCameAfterTheCloseIsRefunded() {
        when(channel.close("N1")).thenReturn(Uni.createFrom().item(TradeClosing.paid(paidTrade())));
        when(confirmation.confirm(any(), any())).thenReturn(Uni.createFrom().item(Outcome.REFUNDED));
        assertEquals(TradeCloser.Closure.REFUNDED, close());
    }

    @Test
    void aPaymentOnASecondTradeOfAPaidOrderIsRefunded() {
        when(channel.close("N1")).thenReturn(Uni.createFrom().item(TradeClosing.paid(paidTrade())));
        when(confirmation.confirm(any(), any())).thenReturn(Uni.createFrom().item(Outcome.DUPLICATE));
        assertEquals(TradeCloser.Closure.REFUNDED, close());
    }

    @Test
    void aPaymentThatIsNotAcceptedKeepsTheOrderOpen() {
        when(channel.close("N1")).thenReturn(Uni.createFrom().item(TradeClosing.paid(paidTrade())));
        when(confirmation.confirm(any(), any())).thenReturn(Uni.createFrom().item(Outcome.AMOUNT_MISMATCH));
        assertThrows(IllegalStateException.class, this::close);
    }

    @Test
    void aWalletThatCannotTellIsAFailureToRetry() {
        when(channel.close("N1")).thenReturn(Uni.createFrom().failure(PaymentGatewayException.unavailable("Alipay",
                "close", new RuntimeException("timeout"))));
        assertThrows(PaymentGatewayException.class, this::close);
    }

    private TradeCloser.Closure close() {
        Payment payment = new Payment();
        payment.orderId = 1L;
        payment.orderNo = "N1";
        payment.amount = new BigDecimal("5.00");
        payment.channel = "wallet";
        payment.outTradeNo = "N1";
        return closer.closeAtWallet(payment).await().atMost(WAIT);
    }

    private static Trade paidTrade() {
        return new Trade("N1", TradeState.PAID, "TRADE_SUCCESS", "T1", new BigDecimal("5.00"), null);
    }
}
