package com.shop.orders.expiry;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyContext;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.MessageExt;
import org.jboss.logging.Logger;

import com.shop.orders.common.MutinyBridge;
import com.shop.orders.common.RocketMqConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Receives committed timeout messages and hands them to {@link ExpiryHandler}. A failure
 * answers RECONSUME_LATER, so the broker redelivers later; handling is idempotent.
 */
@ApplicationScoped
public class TimeoutConsumer implements MessageListenerConcurrently {

    private static final Logger LOG = Logger.getLogger(TimeoutConsumer.class);

    private final ExpiryHandler handler;
    private final ExpiryConfig config;
    private final RocketMqConfig rocketMq;
    private final MeterRegistry registry;
    private volatile DefaultMQPushConsumer consumer;

    public TimeoutConsumer(ExpiryHandler handler, ExpiryConfig config, RocketMqConfig rocketMq,
            MeterRegistry registry) {
        this.handler = handler;
        this.config = config;
        this.rocketMq = rocketMq;
        this.registry = registry;
    }

    void onStart(@Observes StartupEvent event) throws MQClientException {
        DefaultMQPushConsumer created = new DefaultMQPushConsumer(config.consumerGroup());
        created.setNamesrvAddr(rocketMq.nameServer());
        created.setInstanceName("orders-" + UUID.randomUUID());
        created.setVipChannelEnabled(false);
        created.setPollNameServerInterval((int) rocketMq.pollNameServerInterval().toMillis());
        created.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        created.setConsumeThreadMin(config.consumer().threads());
        created.setConsumeThreadMax(config.consumer().threads());
        created.setConsumeMessageBatchMaxSize(1);
        created.subscribe(config.topic(), "*");
        created.registerMessageListener(this);
        created.start();
        consumer = created;
    }

    void onStop(@Observes ShutdownEvent event) {
        if (consumer != null) {
            consumer.shutdown();
        }
    }

    public boolean isNameServerReachable() {
        DefaultMQPushConsumer current = consumer;
        return current != null && NameServers.isReachable(current.getDefaultMQPushConsumerImpl().getmQClientFactory());
    }

    @Override
    public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        for (MessageExt message : messages) {
            String orderNo = TimeoutTransactionListener.orderNo(message);
            try {
                MutinyBridge.await(() -> handler.onTimeout(orderNo), config.consumer().handleTimeout());
            } catch (Throwable e) {
                registry.counter("expiry.consumer.retries").increment();
                LOG.warnf("Timeout of %s not handled (attempt %d): %s; retrying later", orderNo,
                        message.getReconsumeTimes() + 1, e.toString());
                context.setDelayLevelWhenNextConsume(config.consumer().retryDelayLevel());
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
        }
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }
}
