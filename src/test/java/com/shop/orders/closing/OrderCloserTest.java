package com.shop.orders.closing;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.payment.TradeCloser;
import com.shop.orders.testsupport.OnVertx;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.InjectMock;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;

/** Every outcome of closing an order, with Alipay's side stubbed and the order in the real database. */
@QuarkusTest
class OrderCloserTest {

    @Inject
    OrderCloser closer;

    @InjectMock
    TradeCloser trades;

    @BeforeEach
    void noCodeStoredMeanwhile() {
        when(trades.offeredSince(anyLong(), anyInt())).thenReturn(Uni.createFrom().item(false));
    }

    private static Uni<TradeCloser.Closing> closing(TradeCloser.Closure closure) {
        return Uni.createFrom().item(new TradeCloser.Closing(closure, 0));
    }

    @Test
    void anOrderBeforeItsDeadlineIsNotDueAndAlipayIsNotAsked() throws Exception {
        int orderId = placeOrder(newMemberToken(), TestDb.newSku(5, "1.00"), 1);
        assertEquals(OrderCloser.Outcome.NOT_DUE, closeIfOverdue(orderId));
        // This order's trades (other tests' orders may expire meanwhile).
        verify(trades, never()).close(orderId);
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
    }

    @Test
    void anOverdueOrderIsClosedOnceAndItsStockReleasedOnce() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        int orderId = overdueOrder(sku, 2);
        when(trades.close(anyLong())).thenReturn(closing(TradeCloser.Closure.CLOSED));

        assertEquals(OrderCloser.Outcome.CLOSED, closeIfOverdue(orderId));
        assertEquals(OrderCloser.Outcome.ALREADY_DECIDED, closeIfOverdue(orderId));
        assertEquals("CLOSED", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    @Test
    void anOrderWhoseTradeTurnsOutPaidIsNotClosed() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        int orderId = overdueOrder(sku, 2);
        // TradeCloser recorded the payment (PAID) before answering.
        when(trades.close(anyLong())).thenReturn(closing(TradeCloser.Closure.PAID));

        assertEquals(OrderCloser.Outcome.PAID, closeIfOverdue(orderId));
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(5, 2), TestDb.sku(sku));
    }

    @Test
    void aQrCodeStoredWhileTheOrderIsClosedIsClosedAtAlipayBeforeTheOrderCloses() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        int orderId = overdueOrder(sku, 2);
        // First look: no QR code yet. Then a payment request stores one before our conditional update.
        when(trades.close(anyLong())).thenReturn(closing(TradeCloser.Closure.NO_TRADE),
                closing(TradeCloser.Closure.CLOSED));
        when(trades.offeredSince(anyLong(), anyInt())).thenReturn(Uni.createFrom().item(true),
                Uni.createFrom().item(false));

        assertEquals(OrderCloser.Outcome.CLOSED, closeIfOverdue(orderId));
        verify(trades, org.mockito.Mockito.times(2)).close(anyLong());
        assertEquals("CLOSED", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    @Test
    void whenAlipayCannotTellTheOrderStaysAsItWas() {
        long sku = TestDb.newSku(5, "1.00");
        int orderId = overdueOrder(sku, 2);
        when(trades.close(anyLong())).thenReturn(Uni.createFrom().failure(new IllegalStateException("down")));

        assertThrows(IllegalStateException.class, () -> closeIfOverdue(orderId));
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(5, 2), TestDb.sku(sku));
    }

    @Test
    void aMemberCannotCancelWhenAlipayIsUnreachable() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        when(trades.close(anyLong())).thenReturn(Uni.createFrom().failure(
                new PaymentGatewayExceptionForTest()));

        com.shop.orders.testsupport.Members.as(member).post("/api/orders/" + orderId + "/cancel").then()
                .statusCode(503).contentType("application/problem+json");
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        assertEquals(new TestDb.SkuRow(5, 1), TestDb.sku(sku));
    }

    private static int overdueOrder(long sku, int quantity) {
        int orderId = placeOrder(newMemberToken(), sku, quantity);
        TestDb.update("UPDATE orders SET pay_deadline = NOW(6) - INTERVAL 1 SECOND WHERE id = ?", orderId);
        return orderId;
    }

    /** What the gateway answers when Alipay cannot be reached: 503 to members. */
    private static final class PaymentGatewayExceptionForTest extends com.shop.orders.web.ProblemException {
        PaymentGatewayExceptionForTest() {
            super(503, "Payment provider unavailable", "Alipay could not be reached for close; try again shortly");
        }
    }

    private OrderCloser.Outcome closeIfOverdue(int orderId) throws Exception {
        return OnVertx.await(() -> closer.closeIfOverdue(orderNo(orderId), OrderCloser.By.EXPIRY_MESSAGE));
    }
}
