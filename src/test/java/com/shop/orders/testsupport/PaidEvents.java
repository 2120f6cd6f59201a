package com.shop.orders.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.rebalance.AllocateMessageQueueAveragely;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;

/** A consumer of "order paid" events in a group of its own, recording "key payload" per delivery. */
public final class PaidEvents implements AutoCloseable {

    private final DefaultMQPushConsumer consumer;
    // Not a copy-on-write list: the benchmark's soak receives a hundred thousand events and more, one at a time.
    private final Queue<String> received = new ConcurrentLinkedQueue<>();

    private PaidEvents(DefaultMQPushConsumer consumer) {
        this.consumer = consumer;
    }

    public static PaidEvents listen(String nameServer, String topic) throws MQClientException {
        return listen(new DefaultMQPushConsumer("paid-listener-" + UUID.randomUUID()), nameServer, topic);
    }

    /**
     * A listener of a secured broker ({@link LocalRocketMq#secured}): over TLS, as this user, whose rights must cover
     * the topic and the groups {@code paid-listener-*}.
     */
    public static PaidEvents listenAs(SessionCredentials user, String nameServer, String topic)
            throws MQClientException {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("paid-listener-" + UUID.randomUUID(),
                new AclClientRPCHook(user), new AllocateMessageQueueAveragely());
        consumer.setUseTLS(true);
        return listen(consumer, nameServer, topic);
    }

    private static PaidEvents listen(DefaultMQPushConsumer consumer, String nameServer, String topic)
            throws MQClientException {
        consumer.setNamesrvAddr(nameServer);
        consumer.setInstanceName("paid-listener-" + UUID.randomUUID());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.setPollNameServerInterval(1000);
        consumer.subscribe(topic, "*");
        PaidEvents events = new PaidEvents(consumer);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> events.received.add(m.getKeys() + " " + new String(m.getBody(), StandardCharsets.UTF_8)));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        return events;
    }

    /** Deliveries whose key starts with {@code keyPrefix}. */
    public long count(String keyPrefix) {
        return received.stream().filter(m -> m.startsWith(keyPrefix)).count();
    }

    /** Deliveries per message key (order number). */
    public java.util.Map<String, Long> countsByKey() {
        return received.stream().collect(java.util.stream.Collectors.groupingBy(m -> m.substring(0, m.indexOf(' ')),
                java.util.stream.Collectors.counting()));
    }

    public String first(String key) {
        return received.stream().filter(m -> m.startsWith(key + " ")).findFirst().orElse(null);
    }

    @Override
    public void close() {
        consumer.shutdown();
    }
}
