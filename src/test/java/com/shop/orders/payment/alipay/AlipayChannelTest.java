package com.shop.orders.payment.alipay;

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

import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeClosing;
import com.shop.orders.payment.alipay.AlipayReplies.CancelResult;
import com.shop.orders.payment.alipay.AlipayReplies.CloseResult;

import io.smallrye.mutiny.Uni;

/** What closing a trade at Alipay comes to, for every answer Alipay can give. */
class AlipayChannelTest {

    private static final Duration WAIT = Duration.ofSeconds(1);

    private final AlipayGateway alipay = mock(AlipayGateway.class);
    private final AlipayChannel channel = new AlipayChannel(alipay);

    @Test
    void aScannedTradeIsClosed() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.CLOSED));
        assertEquals(TradeClosing.closed(), close());
        verify(alipay, never()).cancel(any());
    }

    @Test
    void anUnscannedQrCodeIsVoided() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_EXIST));
        when(alipay.cancel("N1")).thenReturn(Uni.createFrom().item(CancelResult.CLOSED));
        assertEquals(TradeClosing.closed(), close());
    }

    /** A QR code asked for just before the deadline, refused by Alipay: the order still closes. */
    @Test
    void aTradeAlipayNeverPrecreatedIsClosedAsItIs() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_EXIST));
        when(alipay.cancel("N1")).thenReturn(Uni.createFrom().item(CancelResult.NOT_EXIST));
        assertEquals(TradeClosing.closed(), close());
    }

    @Test
    void aQrCodePaidWhileBeingVoidedIsReversedByAlipay() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_EXIST));
        when(alipay.cancel("N1")).thenReturn(Uni.createFrom().item(CancelResult.REFUNDED));
        assertEquals(TradeClosing.reversed(), close());
    }

    @Test
    void aTradeThatCannotBeClosedIsAskedAbout() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_CLOSABLE));
        when(alipay.query("N1")).thenReturn(Uni.createFrom().item(trade(TradeStatus.TRADE_CLOSED)));
        assertEquals(TradeClosing.closed(), close());
    }

    @Test
    void aPaidTradeIsReportedWithWhatAlipayKnows() {
        Trade paid = trade(TradeStatus.TRADE_SUCCESS);
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_CLOSABLE));
        when(alipay.query("N1")).thenReturn(Uni.createFrom().item(paid));
        assertEquals(TradeClosing.paid(paid), close());
    }

    @Test
    void anOpenTradeAlipayWillNotCloseIsAFailureToRetry() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().item(CloseResult.NOT_CLOSABLE));
        when(alipay.query("N1")).thenReturn(Uni.createFrom().item(trade(TradeStatus.WAIT_BUYER_PAY)));
        assertThrows(IllegalStateException.class, this::close);
    }

    @Test
    void alipayUnreachableIsAFailureToRetry() {
        when(alipay.close("N1")).thenReturn(Uni.createFrom().failure(PaymentGatewayException.unavailable(
                AlipayGateway.WALLET, "close", new RuntimeException("timeout"))));
        assertThrows(PaymentGatewayException.class, this::close);
    }

    private TradeClosing close() {
        return channel.close("N1").await().atMost(WAIT);
    }

    private static Trade trade(TradeStatus status) {
        return new Trade("N1", status.state(), status.name(), "T1", new BigDecimal("5.00"), null);
    }
}
