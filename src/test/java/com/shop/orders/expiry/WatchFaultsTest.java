package com.shop.orders.expiry;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

import com.shop.orders.common.MutinyBridge;
import com.shop.orders.common.RocketMqConfig;
import com.shop.orders.testsupport.LocalRocketMq;
import com.shop.orders.testsupport.Pause;
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
        Pause.of(Duration.ofSeconds(4));
        int later = placeOrder(member, sku, 3);

        // Past the deadline, but before the watch's own COMMIT could be consumed: wait just for the deadline.
        Instant deadline = Instant.now().plusSeconds(6);
        while (Instant.now().isBefore(deadline) && "PENDING_PAYMENT".equals(TestDb.orderStatus(racing))
                && OrderTimes.of(racing).deadline().isAfter(java.time.LocalDateTime.now(java.time.ZoneOffset.UTC))) {
            Pause.of(Duration.ofMillis(50));
        }
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
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Callable<Object>> racers = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    racers.add(() -> onVertx(() -> handler.onTimeout(no)));
                    racers.add(() -> onVertx(() -> sweep.sweepOverdueBefore(Instant.now())));
                }
                for (Future<Object> racer : pool.invokeAll(racers)) {
                    racer.get();
                }
            } finally {
                pool.shutdownNow();
            }
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
