package com.shop.orders.expiry;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static com.shop.orders.testsupport.Payments.scan;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.MethodFault;
import com.shop.orders.sandbox.SandboxFaults;
import com.shop.orders.sandbox.SandboxTradeStatus;
import com.shop.orders.sandbox.SandboxTrades;
import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.RedisServer;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The watch end to end: real broker check-backs, real consumer, Redis, MariaDB and the Alipay
 * sandbox. Pay timeout 10 s, broker checks every 1 s, sweep grace 12 s: an order closed less than
 * the grace after its deadline was closed by the watch, not by the sweep.
 */
@QuarkusTest
class PaymentTimeoutTest {

    private static final Duration CHECK_INTERVAL = Duration.ofSeconds(1);
    private static final Duration SWEEP_GRACE = Duration.ofSeconds(12);

    @Inject
    SandboxFaults faults;

    @Inject
    SandboxTrades trades;

    @Inject
    RedisDataSource redis;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void unpaidOrderIsClosedPromptlyAfterItsDeadline() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int scanned = placeOrder(member, sku, 2);
        int untouched = placeOrder(member, sku, 3);
        scan(requestQr(member, scanned));

        TestDb.awaitOrderStatus(scanned, "CLOSED", Duration.ofSeconds(30));
        TestDb.awaitOrderStatus(untouched, "CLOSED", Duration.ofSeconds(30));
        for (int id : new int[] { scanned, untouched }) {
            OrderTimes times = OrderTimes.of(id);
            assertFalse(times.closedAfterDeadline().isNegative(), "closed before its deadline: " + times);
            assertTrue(times.closedAfterDeadline().compareTo(CHECK_INTERVAL.multipliedBy(4)) < 0,
                    "closed late: " + times);
        }
        assertEquals("TIMEOUT", TestDb.scalar("SELECT close_reason FROM orders WHERE id = ?", scanned));
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, trades.trade(orderNo(scanned)).orElseThrow().status());
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void paymentWithLostNotifyIsFoundByTheCheckBack() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 4);
        faults.dropNotifies(true);
        pay(requestQr(member, orderId));
        long paidAt = System.nanoTime();

        TestDb.awaitOrderStatus(orderId, "PAID", Duration.ofSeconds(9));
        Duration detection = Duration.ofNanos(System.nanoTime() - paidAt);
        // Query budget in tests: at most one query every 2 s.
        assertTrue(detection.compareTo(Duration.ofSeconds(5)) < 0, "found after " + detection);
        assertEquals(0, trades.notifiesSent(orderNo(orderId)));
        assertEquals(new TestDb.SkuRow(6, 0), TestDb.sku(sku));
        // Still paid after the deadline: no cancel.
        Pause.of(Duration.ofSeconds(12));
        assertEquals("PAID", TestDb.orderStatus(orderId));
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void noAlipayQueryOnceTheNotifyMarkedTheOrderPaid() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        String no = orderNo(orderId);
        pay(requestQr(member, orderId));
        TestDb.awaitOrderStatus(orderId, "PAID", Duration.ofSeconds(5));

        long queriesWhenPaid = trades.calls("alipay.trade.query", no);
        Pause.of(Duration.ofSeconds(6));
        assertEquals(queriesWhenPaid, trades.calls("alipay.trade.query", no));
    }

    @Test
    void alipayErrorsDuringTheWatchNeverLoseTheTimeout() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        scan(requestQr(member, orderId));
        faults.fail("alipay.trade.query", MethodFault.systemError(), 6);
        faults.fail("alipay.trade.close", MethodFault.httpStatus(502), 2);

        TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));
        OrderTimes times = OrderTimes.of(orderId);
        assertTrue(times.closedAfterDeadline().compareTo(SWEEP_GRACE) < 0, "closed by the sweep, not the watch: " + times);
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    @Test
    void stoppedRedisDoesNotStopTheWatch() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int paid = placeOrder(member, sku, 2);
        int unpaid = placeOrder(member, sku, 1);
        faults.dropNotifies(true);
        String qr = requestQr(member, paid);
        RedisServer.stop();
        try {
            pay(qr);
            // Without Redis there is no query budget: the payment is found by the cancel path's trade close.
            TestDb.awaitOrderStatus(unpaid, "CLOSED", Duration.ofSeconds(30));
            TestDb.awaitOrderStatus(paid, "PAID", Duration.ofSeconds(30));
        } finally {
            RedisServer.start();
        }
        assertTrue(OrderTimes.of(unpaid).closedAfterDeadline().compareTo(SWEEP_GRACE) < 0);
        assertTrue(Duration.between(OrderTimes.of(paid).deadline(), OrderTimes.of(paid).paidAt()).compareTo(SWEEP_GRACE) < 0);
        assertEquals(new TestDb.SkuRow(8, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void qrRequestedFiveTimesStartsOneWatchWithOneDeadline() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        String no = orderNo(orderId);
        Object deadline = TestDb.scalar("SELECT pay_deadline FROM orders WHERE id = ?", orderId);
        for (int i = 0; i < 5; i++) {
            requestQr(member, orderId);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> watch(no).containsKey("arms"));
        Pause.of(Duration.ofSeconds(2));
        assertEquals("1", watch(no).get("arms"));
        assertEquals(deadline, TestDb.scalar("SELECT pay_deadline FROM orders WHERE id = ?", orderId));
        TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));
        assertEquals("1", watch(no).get("arms"));
    }

    private Map<String, String> watch(String orderNo) {
        return redis.hash(String.class).hgetall("order:watch:" + orderNo);
    }
}
