package com.shop.orders.expiry;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static com.shop.orders.testsupport.Payments.scan;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.alipay.MethodFault;
import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxTradeStatus;
import com.shop.orders.sandbox.alipay.SandboxTrades;
import com.shop.orders.testsupport.LocalRedis;
import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

/**
 * Expiry end to end: real broker check-backs, real consumer, Redis, MariaDB and the Alipay sandbox. Pay
 * timeout 6 s, broker checks every 1 s, sweep grace 8 s: an order closed less than the grace after its
 * deadline was closed by its expiry message, not by the sweep.
 */
@QuarkusTest
class ExpiryTest {

    private static final Duration PROMPT = Duration.ofSeconds(4);
    private static final Duration SWEEP_GRACE = Duration.ofSeconds(8);

    @Inject
    SandboxFaults faults;

    @Inject
    SandboxTrades trades;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    /**
     * The test broker gives up on a message after 5 checks, one a second, before the 6 s pay window ends:
     * every expiry message here is renewed once, as a long pay window's would be in production.
     */
    @Test
    void unpaidOrdersAreClosedPromptlyAfterTheirDeadlineAndTheirQrCodesVoided() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        double renewed = Metrics.value("expiry_messages_renewed_total");
        int scanned = placeOrder(member, sku, 2);
        int offered = placeOrder(member, sku, 1);
        int untouched = placeOrder(member, sku, 3);
        Object deadline = TestDb.scalar("SELECT pay_deadline FROM orders WHERE id = ?", offered);
        scan(requestQr(member, scanned));
        String offeredQr = requestQr(member, offered);
        // Asking again returns the same code and moves nothing.
        for (int i = 0; i < 4; i++) {
            assertEquals(offeredQr, requestQr(member, offered));
        }
        assertEquals(1, trades.calls("alipay.trade.precreate", orderNo(offered)));
        assertEquals(deadline, TestDb.scalar("SELECT pay_deadline FROM orders WHERE id = ?", offered));

        for (int id : new int[] { scanned, offered, untouched }) {
            TestDb.awaitOrderStatus(id, "CLOSED", Duration.ofSeconds(30));
            OrderTimes times = OrderTimes.of(id);
            assertFalse(times.closedAfterDeadline().isNegative(), "closed before its deadline: " + times);
            assertTrue(times.closedAfterDeadline().compareTo(PROMPT) < 0, "closed late: " + times);
            assertEquals("EXPIRED", TestDb.scalar("SELECT close_reason FROM orders WHERE id = ?", id));
        }
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, trades.trade(orderNo(scanned)).orElseThrow().status());
        // Never scanned, yet voided: the QR code cannot be paid after the order was closed.
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, trades.trade(orderNo(offered)).orElseThrow().status());
        given().contentType("application/json").body(Map.of("qrCode", offeredQr)).post("/sandbox/alipay/buyer/pay")
                .then().statusCode(409);
        TestDb.assertStockInvariant(sku, 10);
        assertTrue(Metrics.value("expiry_messages_renewed_total") >= renewed + 1, "expiry messages renewed");
    }

    @Test
    void paymentWithALostNotifyIsFoundByACheckBack() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 4);
        faults.dropNotifies(true);
        pay(requestQr(member, orderId));
        long paidAt = System.nanoTime();

        TestDb.awaitOrderStatus(orderId, "PAID", Duration.ofSeconds(9));
        Duration detection = Duration.ofNanos(System.nanoTime() - paidAt);
        // Query budget in tests: the first query 1 s after placement, then one every 2 s.
        assertTrue(detection.compareTo(Duration.ofSeconds(5)) < 0, "found after " + detection);
        assertEquals(0, trades.notifiesSent(orderNo(orderId)));
        assertEquals(new TestDb.SkuRow(6, 0), TestDb.sku(sku));
        assertEquals(SandboxTradeStatus.TRADE_SUCCESS, trades.trade(orderNo(orderId)).orElseThrow().status());
        assertTrue(TestDb.<String> scalar("SELECT payload FROM outbox_event WHERE message_key = ?", orderNo(orderId))
                .contains("\"source\":\"QUERY\""));
        TestDb.assertStockInvariant(sku, 10);
    }

    @Test
    void checkBacksQueryAlipayForUnpaidOrdersOnlyNotForPaidOnes() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int unpaid = placeOrder(member, sku, 1);
        int paid = placeOrder(member, sku, 1);
        requestQr(member, unpaid);
        pay(requestQr(member, paid));
        TestDb.awaitOrderStatus(paid, "PAID", Duration.ofSeconds(5));
        long paidQueries = trades.calls("alipay.trade.query", orderNo(paid));
        long unpaidQueries = trades.calls("alipay.trade.query", orderNo(unpaid));

        // Check-backs keep running and asking about the unpaid order...
        await().atMost(Duration.ofSeconds(10))
                .until(() -> trades.calls("alipay.trade.query", orderNo(unpaid)) >= unpaidQueries + 2);
        // ...but not about the paid one.
        assertEquals(paidQueries, trades.calls("alipay.trade.query", orderNo(paid)));
    }

    @Test
    void alipayErrorsNeverLoseTheExpiry() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        scan(requestQr(member, orderId));
        // Each failure the closer meets costs one consumer retry (about 1.1 s): two closes, then the queries the
        // check-backs' probes did not take (at the deadline the trade is closed at Alipay already, so the closer asks
        // which). Probes may take none of them (a renewed message is not checked for a second), so at most five
        // retries must fit within the sweep's grace; with six query failures they did not always.
        faults.failFor(orderNo(orderId), "alipay.trade.query", MethodFault.systemError(), 2);
        faults.failFor(orderNo(orderId), "alipay.trade.close", MethodFault.httpStatus(502), 2);

        TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));
        OrderTimes times = OrderTimes.of(orderId);
        assertTrue(times.closedAfterDeadline().compareTo(SWEEP_GRACE) < 0, "closed by the sweep: " + times);
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    @Test
    void expiryWorksWithoutRedis() {
        long sku = TestDb.newSku(10, "3.00");
        String member = newMemberToken();
        int paid = placeOrder(member, sku, 2);
        int unpaid = placeOrder(member, sku, 1);
        faults.dropNotifies(true);
        String qr = requestQr(member, paid);
        LocalRedis redis = LocalRedis.current();
        redis.stop();
        try {
            pay(qr);
            // Without Redis there is no query budget: the payment is found by the close path at the deadline.
            TestDb.awaitOrderStatus(unpaid, "CLOSED", Duration.ofSeconds(30));
            TestDb.awaitOrderStatus(paid, "PAID", Duration.ofSeconds(30));
        } finally {
            redis.start();
        }
        assertTrue(OrderTimes.of(unpaid).closedAfterDeadline().compareTo(PROMPT) < 0, OrderTimes.of(unpaid).toString());
        OrderTimes paidTimes = OrderTimes.of(paid);
        assertTrue(Duration.between(paidTimes.deadline(), paidTimes.paidAt()).compareTo(PROMPT) < 0, paidTimes.toString());
        assertEquals(new TestDb.SkuRow(8, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
    }
}
