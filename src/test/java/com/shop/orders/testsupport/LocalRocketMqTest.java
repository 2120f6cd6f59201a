package com.shop.orders.testsupport;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** Plain JUnit test of the local broker itself (no Quarkus application). */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalRocketMqTest {

    private static LocalRocketMq rocketMq;

    @BeforeAll
    static void startBroker() {
        long t0 = System.nanoTime();
        rocketMq = LocalRocketMq.forTests().start();
        System.out.printf("LocalRocketMq started in %d ms: %s%n", (System.nanoTime() - t0) / 1_000_000, rocketMq);
    }

    @AfterAll
    static void stopBroker() {
        if (rocketMq != null) {
            rocketMq.stop();
        }
    }

    @Test
    @Order(1)
    void halfMessageIsCheckedUntilCommittedThenDeliveredOnce() throws Exception {
        String topic = "lrmq-tx-" + shortId();
        rocketMq.createTopics(topic);

        List<MessageExt> received = new CopyOnWriteArrayList<>();
        List<Long> receivedAt = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = consumer("lrmq-tx-consumer-" + shortId(), topic, received, receivedAt);

        AtomicInteger checks = new AtomicInteger();
        List<Long> checkTimes = new CopyOnWriteArrayList<>();
        long[] sentAt = new long[1];
        ExecutorService checkPool = Executors.newFixedThreadPool(2);
        TransactionMQProducer producer = new TransactionMQProducer("lrmq-tx-producer-" + shortId());
        producer.setNamesrvAddr(rocketMq.nameServerAddress());
        producer.setInstanceName("lrmq-tx-producer-" + shortId());
        producer.setVipChannelEnabled(false);
        producer.setExecutorService(checkPool);
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return LocalTransactionState.UNKNOW;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                checkTimes.add(System.nanoTime());
                return checks.incrementAndGet() <= 2 ? LocalTransactionState.UNKNOW : LocalTransactionState.COMMIT_MESSAGE;
            }
        });
        try {
            producer.start();
            Message msg = new Message(topic, "tx", "order-1", "half".getBytes(StandardCharsets.UTF_8));
            sentAt[0] = System.nanoTime();
            TransactionSendResult result = producer.sendMessageInTransaction(msg, null);
            assertEquals(SendStatus.SEND_OK, result.getSendStatus());
            assertEquals(LocalTransactionState.UNKNOW, result.getLocalTransactionState());

            await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= 1);
            // Give the broker a few more check passes to (wrongly) check or deliver it again.
            Thread.sleep(2500);

            assertEquals(1, received.size(), "delivered exactly once");
            assertEquals("order-1", received.get(0).getKeys());
            assertTrue(checks.get() >= 3, "checked at least 3 times, was " + checks.get());
            assertEquals(3, checks.get(), "no check after COMMIT");

            StringBuilder timeline = new StringBuilder();
            long previous = sentAt[0];
            for (long t : checkTimes) {
                timeline.append(' ').append((t - previous) / 1_000_000).append("ms");
                previous = t;
            }
            System.out.printf("transaction checks (delta from send, then between checks):%s; commit->consumer %d ms%n",
                    timeline, (receivedAt.get(0) - checkTimes.get(checkTimes.size() - 1)) / 1_000_000);
        } finally {
            producer.shutdown();
            consumer.shutdown();
            checkPool.shutdownNow();
        }
    }

    @Test
    @Order(2)
    void brokerCanBeStoppedAndStartedAgain() throws Exception {
        String topic = "lrmq-restart-" + shortId();
        rocketMq.createTopics(topic);

        List<MessageExt> received = new CopyOnWriteArrayList<>();
        DefaultMQPushConsumer consumer = consumer("lrmq-restart-consumer-" + shortId(), topic, received,
                new CopyOnWriteArrayList<>());
        DefaultMQProducer producer = new DefaultMQProducer("lrmq-restart-producer-" + shortId());
        producer.setNamesrvAddr(rocketMq.nameServerAddress());
        producer.setInstanceName("lrmq-restart-producer-" + shortId());
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout(2000);
        producer.setRetryTimesWhenSendFailed(0);
        try {
            producer.start();
            assertEquals(SendStatus.SEND_OK, producer.send(message(topic, "before")).getSendStatus());
            await().atMost(Duration.ofSeconds(15)).until(() -> bodies(received).contains("before"));

            // Handle rebuilt from system properties, as a @QuarkusTest in another class loader would do.
            LocalRocketMq handle = LocalRocketMq.current();
            long t0 = System.nanoTime();
            handle.stopBroker();
            long stopped = System.nanoTime();
            assertFalse(handle.brokerRegistered());
            handle.startBroker();
            long started = System.nanoTime();
            System.out.printf("stopBroker %d ms, startBroker (until registered) %d ms%n",
                    (stopped - t0) / 1_000_000, (started - stopped) / 1_000_000);

            // The client finds the broker again on its own (same address); retry until the send goes through.
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                SendResult r = producer.send(message(topic, "after"));
                return r.getSendStatus() == SendStatus.SEND_OK;
            });
            await().atMost(Duration.ofSeconds(25)).until(() -> bodies(received).contains("after"));
            System.out.printf("after restart: received %s in %d ms from start-broker%n", bodies(received),
                    (System.nanoTime() - started) / 1_000_000);
        } finally {
            producer.shutdown();
            consumer.shutdown();
        }
    }

    private static DefaultMQPushConsumer consumer(String group, String topic, List<MessageExt> received,
            List<Long> receivedAt) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(rocketMq.nameServerAddress());
        consumer.setInstanceName(group);
        consumer.setVipChannelEnabled(false);
        consumer.setPollNameServerInterval(1000);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (msgs, context) -> {
            for (MessageExt m : msgs) {
                receivedAt.add(System.nanoTime());
                received.add(m);
            }
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return consumer;
    }

    private static Message message(String topic, String body) {
        return new Message(topic, "plain", body, body.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> bodies(List<MessageExt> messages) {
        return messages.stream().map(m -> new String(m.getBody(), StandardCharsets.UTF_8)).toList();
    }

    private static String shortId() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
