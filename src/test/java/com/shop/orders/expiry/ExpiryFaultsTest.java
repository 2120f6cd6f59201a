package com.shop.orders.expiry;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;

import jakarta.inject.Inject;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.closing.OrderCloser;
import com.shop.orders.rocketmq.RocketMqConfig;
import com.shop.orders.sandbox.alipay.MethodFault;
import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxTrades;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.OnVertx;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class ExpiryFaultsTest {

    private static final Duration SWEEP_GRACE = Duration.ofSeconds(8);

    @Inject
    RocketMqConfig rocketMq;

    @Inject
    ExpiryConfig expiry;

    @Inject
    ExpiryMessages messages;

    @Inject
    ExpiryCheck check;

    @Inject
    ExpiryHandler handler;

    @Inject
    ExpirySweep sweep;

    @Inject
    OrderCloser closer;

    @Inject
    SandboxFaults faults;

    @Inject
    SandboxTrades trades;

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void anExpiryMessageThatCouldNotBeSentIsSentAgainInTime() throws Exception {
        long sku = TestDb.newSku(10, "2.00");
        messages.stop();
        int orderId;
        try {
            orderId = placeOrder(newMemberToken(), sku, 1);
        } finally {
            messages.start();
        }
        assertNull(TestDb.scalar("SELECT expiry_message_at FROM orders WHERE id = ?", orderId));
        // Resent by the sweep 3 s after placement (tests), well before the deadline...
        await().atMost(Duration.ofSeconds(6))
                .until(() -> TestDb.scalar("SELECT expiry_message_at FROM orders WHERE id = ?", orderId) != null);
        // ...so the order is closed by its expiry message, not left to the sweep's grace.
        TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));
        OrderTimes times = OrderTimes.of(orderId);
        assertTrue(times.closedAfterDeadline().compareTo(Duration.ofSeconds(4)) < 0, "closed late: " + times);
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    @Test
    void duplicateExpiryMessagesAndRacingClosersCloseOnce() throws Exception {
        long sku = TestDb.newSku(10, "2.00");
        String member = newMemberToken();
        int racing = placeOrder(member, sku, 2);
        String no = orderNo(racing);
        // Race at the deadline, together with the order's own expiry message.
        LocalDateTime deadline = OrderTimes.of(racing).deadline();
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(20))
                .until(() -> !LocalDateTime.now(ZoneOffset.UTC).isBefore(deadline));
        // Reserves the same SKU while the race runs: a second release would take its stock.
        int later = placeOrder(member, sku, 3);

        DefaultMQProducer duplicates = new DefaultMQProducer("dup-" + UUID.randomUUID());
        duplicates.setNamesrvAddr(rocketMq.nameServer());
        duplicates.setInstanceName("dup-" + UUID.randomUUID());
        duplicates.setVipChannelEnabled(false);
        duplicates.start();
        try {
            Instant created = Instant.now().minusSeconds(10);
            for (int i = 0; i < 3; i++) {
                duplicates.send(new ExpiryMessage(no, created, Instant.now()).toMessage(expiry.topic()));
            }
            // Each racer on its own thread and Vert.x context, as consumer threads and sweeps are.
            List<Callable<Object>> racers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                racers.add(() -> OnVertx.await(() -> handler.onExpiry(no)));
                racers.add(() -> OnVertx.await(() -> closer.closeIfOverdue(no, OrderCloser.By.EXPIRY_MESSAGE)));
            }
            Concurrently.run(8, racers);
        } finally {
            duplicates.shutdown();
        }
        TestDb.awaitOrderStatus(racing, "CLOSED", Duration.ofSeconds(10));
        // Released once: the later order's reservation is intact, also after the duplicates were consumed.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> new TestDb.SkuRow(10, 3).equals(TestDb.sku(sku)));
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(later));
        TestDb.assertStockInvariant(sku, 10);
        TestDb.awaitOrderStatus(later, "CLOSED", Duration.ofSeconds(30));
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    @Test
    void sweepsRunningAtOnceClaimDisjointOrders() throws Exception {
        long sku = TestDb.newSku(30, "2.00");
        // Two members: one may hold at most shop.order.max-unpaid-per-member unpaid orders.
        List<String> members = List.of(newMemberToken(), newMemberToken());
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String member = members.get(i / 6);
            int id = placeOrder(member, sku, 1);
            if (i % 2 == 0) {
                requestQr(member, id);
            }
            ids.add(id);
        }
        makeOverdue(ids);

        // Several replicas' passes at once (the scheduled pass joins in).
        Concurrently.run(4, () -> OnVertx.await(sweep::sweep));
        for (int id : ids) {
            TestDb.awaitOrderStatus(id, "CLOSED", Duration.ofSeconds(10));
        }
        for (int i = 0; i < ids.size(); i += 2) {
            // Claimed by one sweep only: Alipay was asked to close each trade once.
            assertEquals(1, trades.calls("alipay.trade.close", orderNo(ids.get(i))), "order " + ids.get(i));
        }
        assertEquals(new TestDb.SkuRow(30, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 30);
    }

    @Test
    void anOrderThatCannotBeClosedDoesNotHoldUpTheOthers() throws Exception {
        long sku = TestDb.newSku(10, "2.00");
        String member = newMemberToken();
        int stuck = placeOrder(member, sku, 1);
        requestQr(member, stuck);
        List<Integer> others = List.of(placeOrder(member, sku, 1), placeOrder(member, sku, 1), placeOrder(member, sku, 1));
        List<Integer> all = new ArrayList<>(others);
        all.add(0, stuck);
        faults.failFor(orderNo(stuck), "alipay.trade.close", MethodFault.httpStatus(502), Integer.MAX_VALUE);
        makeOverdue(all);

        OnVertx.await(sweep::sweep);
        for (int id : others) {
            TestDb.awaitOrderStatus(id, "CLOSED", Duration.ofSeconds(10));
        }
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(stuck));
        long attempts = TestDb.count("SELECT sweep_attempts FROM orders WHERE id = ?", stuck);
        assertTrue(attempts >= 1);
        // It waits out its pause instead of being claimed again by the very next pass.
        OnVertx.await(sweep::sweep);
        assertEquals(attempts, TestDb.count("SELECT sweep_attempts FROM orders WHERE id = ?", stuck));

        faults.reset();
        TestDb.awaitOrderStatus(stuck, "CLOSED", Duration.ofSeconds(20));
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    @Test
    void theRetryPauseIsTheSameInJavaAndInSql() {
        var backoff = new com.shop.orders.resilience.Backoff(Duration.ofMillis(1500), Duration.ofSeconds(20));
        Instant now = Instant.parse("2026-11-29T12:00:00Z");
        for (int failuresBefore = 0; failuresBefore < 6; failuresBefore++) {
            List<Object> params = new ArrayList<>(backoff.sqlParams(now));
            LocalDateTime until = TestDb.query("SELECT " + backoff.sqlAfter(Integer.toString(failuresBefore)),
                    rs -> rs.getObject(1, LocalDateTime.class), params.toArray()).get(0);
            assertEquals(now.plus(backoff.after(failuresBefore + 1)), until.toInstant(ZoneOffset.UTC));
        }
    }

    @Test
    void checkBacksContinueOnAnotherProducerOfTheGroup() throws Exception {
        long sku = TestDb.newSku(10, "2.00");
        String member = newMemberToken();
        TransactionMQProducer second = new TransactionMQProducer(expiry.producerGroup());
        second.setNamesrvAddr(rocketMq.nameServer());
        second.setInstanceName("second-" + UUID.randomUUID());
        second.setVipChannelEnabled(false);
        second.setTransactionListener(check);
        second.start();
        try {
            // A producer is known to the broker once it has sent: its own message for another order.
            int other = placeOrder(member, sku, 1);
            OrderTimes otherTimes = OrderTimes.of(other);
            second.sendMessageInTransaction(new ExpiryMessage(orderNo(other),
                    otherTimes.createdAt().toInstant(ZoneOffset.UTC), otherTimes.deadline().toInstant(ZoneOffset.UTC))
                    .toMessage(expiry.topic()), null);
            int orderId = placeOrder(member, sku, 2);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> TestDb.scalar("SELECT expiry_message_at FROM orders WHERE id = ?", orderId) != null);
            messages.stop();

            TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));
            assertTrue(OrderTimes.of(orderId).closedAfterDeadline().compareTo(SWEEP_GRACE) < 0,
                    "closed by the sweep: " + OrderTimes.of(orderId));
            TestDb.awaitOrderStatus(other, "CLOSED", Duration.ofSeconds(30));
        } finally {
            messages.start();
            second.shutdown();
        }
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    /** Moves the orders' deadlines a minute into the past, as if the sweep had missed them for a while. */
    private static void makeOverdue(List<Integer> ids) {
        for (int id : ids) {
            TestDb.update("UPDATE orders SET pay_deadline = NOW(6) - INTERVAL 1 MINUTE, "
                    + "created_at = NOW(6) - INTERVAL 2 MINUTE WHERE id = ?", id);
        }
    }
}
