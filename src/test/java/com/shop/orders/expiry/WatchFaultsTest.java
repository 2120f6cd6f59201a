package com.shop.orders.expiry;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
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
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

import com.shop.orders.common.MutinyBridge;
import com.shop.orders.common.RocketMqConfig;
import com.shop.orders.testsupport.LocalRocketMq;
import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class WatchFaultsTest {

    private static final Duration SWEEP_GRACE = Duration.ofSeconds(12);

    @Inject
    RocketMqConfig rocketMq;

    @Inject
    ExpiryConfig expiry;

    @Inject
    TimeoutWatch watch;

    @Inject
    TimeoutTransactionListener listener;

    @Inject
    ExpiryHandler handler;

    @Inject
    ExpirySweep sweep;

    @Test
    void orderPlacedWhileTheBrokerIsDownIsClosedByTheSweep() {
        long sku = TestDb.newSku(10, "2.00");
        String member = newMemberToken();
        LocalRocketMq broker = LocalRocketMq.current();
        broker.stopBroker();
        int orderId;
        try {
            orderId = placeOrder(member, sku, 3);
            assertEquals(new TestDb.SkuRow(10, 3), TestDb.sku(sku));
        } finally {
            broker.startBroker();
        }
        TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(45));
        OrderTimes times = OrderTimes.of(orderId);
        assertTrue(times.closedAfterDeadline().compareTo(SWEEP_GRACE) >= 0, "no watch, yet closed early: " + times);
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    @Test
    void duplicateTimeoutMessagesAndRacingSweepsCloseOnce() throws Exception {
        long sku = TestDb.newSku(10, "2.00");
        String member = newMemberToken();
        int racing = placeOrder(member, sku, 2);
        String no = orderNo(racing);
        // Race at the deadline, together with the watch's own COMMIT.
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
            for (int i = 0; i < 3; i++) {
                duplicates.send(new Message(expiry.topic(), "timeout", no, no.getBytes(StandardCharsets.UTF_8)));
            }
            // Each racer on its own thread and Vert.x context, as consumer threads and scheduler runs are.
            List<Callable<Object>> racers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                racers.add(() -> onVertx(() -> handler.onTimeout(no)));
                racers.add(() -> onVertx(() -> sweep.sweepOverdueBefore(Instant.now())));
            }
            Concurrently.run(8, racers);
        } finally {
            duplicates.shutdown();
        }
        TestDb.awaitOrderStatus(racing, "CLOSED", Duration.ofSeconds(10));
        Pause.of(Duration.ofSeconds(2));
        // Released once: the later order's reservation is intact.
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(later));
        assertEquals(new TestDb.SkuRow(10, 3), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
        TestDb.awaitOrderStatus(later, "CLOSED", Duration.ofSeconds(30));
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }

    @Test
    void checkBacksContinueOnAnotherProducerOfTheGroup() throws Exception {
        long sku = TestDb.newSku(10, "2.00");
        String member = newMemberToken();
        TransactionMQProducer second = new TransactionMQProducer(expiry.producerGroup());
        second.setNamesrvAddr(rocketMq.nameServer());
        second.setInstanceName("second-" + UUID.randomUUID());
        second.setVipChannelEnabled(false);
        second.setTransactionListener(listener);
        second.start();
        try {
            // A producer is known to the broker once it has sent: its own watch of another order.
            int other = placeOrder(member, sku, 1);
            second.sendMessageInTransaction(new Message(expiry.topic(), "timeout", orderNo(other),
                    orderNo(other).getBytes(StandardCharsets.UTF_8)), Instant.now().plusSeconds(10));
            int orderId = placeOrder(member, sku, 2);
            Pause.of(Duration.ofSeconds(2));
            watch.stop();

            TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));
            assertTrue(OrderTimes.of(orderId).closedAfterDeadline().compareTo(SWEEP_GRACE) < 0,
                    "closed by the sweep: " + OrderTimes.of(orderId));
            TestDb.awaitOrderStatus(other, "CLOSED", Duration.ofSeconds(30));
        } finally {
            watch.start();
            second.shutdown();
        }
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }


    private static Object onVertx(java.util.function.Supplier<io.smallrye.mutiny.Uni<?>> pipeline) throws Exception {
        try {
            return MutinyBridge.await(pipeline::get, Duration.ofSeconds(20));
        } catch (Exception e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
