package com.shop.orders.events;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.common.RocketMqConfig;
import com.shop.orders.testsupport.LocalRocketMq;
import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

/** "Order paid" events reach RocketMQ once per payment, also when the broker was down at the time. */
@QuarkusTest
class OrderPaidEventsTest {

    @Inject
    RocketMqConfig rocketMq;

    @Inject
    EventsConfig events;

    private DefaultMQPushConsumer consumer;
    private final List<String> received = new CopyOnWriteArrayList<>();

    @BeforeEach
    void subscribe() throws Exception {
        consumer = new DefaultMQPushConsumer("paid-listener-" + UUID.randomUUID());
        consumer.setNamesrvAddr(rocketMq.nameServer());
        consumer.setInstanceName("paid-listener-" + UUID.randomUUID());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1000);
        consumer.subscribe(events.paidTopic(), "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> received.add(m.getKeys() + " " + new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
    }

    @AfterEach
    void unsubscribe() {
        consumer.shutdown();
    }

    @Test
    void paidOrderIsPublishedOnceKeyedByOrderNumber() {
        long sku = TestDb.newSku(5, "6.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        String no = orderNo(orderId);
        pay(requestQr(member, orderId));

        await().atMost(Duration.ofSeconds(30)).until(() -> received.stream().anyMatch(m -> m.startsWith(no + " ")));
        String event = received.stream().filter(m -> m.startsWith(no + " ")).findFirst().orElseThrow();
        assertTrue(event.contains("\"orderId\":" + orderId), event);
        assertTrue(event.contains("\"amount\":6.00"), event);
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE message_key = ?", no));
    }

    @Test
    void eventsWaitInTheOutboxWhileTheBrokerIsDown() {
        long sku = TestDb.newSku(5, "6.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        String no = orderNo(orderId);
        String qr = requestQr(member, orderId);
        LocalRocketMq broker = LocalRocketMq.current();
        broker.stopBroker();
        try {
            pay(qr);
            await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(TestDb.orderStatus(orderId)));
            Pause.of(Duration.ofSeconds(3));
            assertEquals(1, TestDb.count(
                    "SELECT COUNT(*) FROM outbox_event WHERE message_key = ? AND published_at IS NULL", no));
        } finally {
            broker.startBroker();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> received.stream().anyMatch(m -> m.startsWith(no + " ")));
        assertEquals(1, TestDb.count(
                "SELECT COUNT(*) FROM outbox_event WHERE message_key = ? AND published_at IS NOT NULL", no));
    }
}
