package com.shop.orders.expiry;

import java.util.List;

import jakarta.annotation.Priority;
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

import com.shop.orders.resilience.MutinyBridge;
import com.shop.orders.rocketmq.RocketMqClients;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/**
 * Receives committed expiry messages and hands them to {@link ExpiryHandler}. A failure answers
 * RECONSUME_LATER, so the broker delivers the message again later; handling is idempotent.
 */
@ApplicationScoped
public class ExpiryConsumer implements MessageListenerConcurrently {

    private static final Logger LOG = Logger.getLogger(ExpiryConsumer.class);

    private final ExpiryHandler handler;
    private final RocketMqClients clients;
    private final ExpiryConfig config;
    private final Spans spans;
    private final MeterRegistry registry;
    private volatile DefaultMQPushConsumer consumer;
    private volatile boolean stopping;
    private int startFailures;

    public ExpiryConsumer(ExpiryHandler handler, RocketMqClients clients, ExpiryConfig config, Spans spans,
            MeterRegistry registry) {
        this.handler = handler;
        this.clients = clients;
        this.config = config;
        this.spans = spans;
        this.registry = registry;
        registry.counter("expiry.consumer.retries");
    }

    void onStart(@Observes StartupEvent event) {
        keepStarted();
    }

    /**
     * Starts consuming, and tries again every few seconds while it cannot: a consumer does not start without a
     * name server, and the service must start (and take orders) without one; the sweep covers the meantime.
     */
    @Scheduled(identity = "expiry-consumer-start", every = "5s", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    synchronized void keepStarted() {
        if (consumer != null || stopping) {
            return;
        }
        DefaultMQPushConsumer created = clients.pushConsumer(config.consumerGroup());
        created.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        created.setConsumeThreadMin(config.consumer().threads());
        created.setConsumeThreadMax(config.consumer().threads());
        created.setConsumeMessageBatchMaxSize(1);
        created.registerMessageListener(this);
        try {
            created.subscribe(config.topic(), "*");
            clients.start(created);
            consumer = created;
            if (startFailures > 0) {
                LOG.infof("Consuming expiry messages again after %d failed starts", startFailures);
            }
        } catch (MQClientException | RuntimeException e) {
            created.shutdown();
            if (startFailures++ == 0) {
                LOG.warnf("Expiry messages are not consumed yet (%s); trying again every 5 s, the sweep covers the "
                        + "meantime", e.getMessage());
            }
        }
    }

    /** Before anything else at shutdown: take no more messages, let the ones being handled finish. */
    synchronized void onStop(@Observes @Priority(5) ShutdownEvent event) {
        stopping = true;
        if (consumer != null) {
            consumer.setAwaitTerminationMillisWhenShutdown(config.consumer().handleTimeout().toMillis());
            consumer.shutdown();
            consumer = null;
        }
    }

    @Override
    public ConsumeConcurrentlyStatus consumeMessage(List<MessageExt> messages, ConsumeConcurrentlyContext context) {
        for (MessageExt message : messages) {
            ExpiryMessage expiry = ExpiryMessage.of(message);
            String orderNo = expiry.orderNo();
            // A trace of its own, linked to the one that sent the message: the close's SQL and Alipay calls in it.
            Span span = spans.startLinked(config.topic() + " process", SpanKind.CONSUMER, expiry.trace());
            span.setAttribute(Spans.MESSAGING_SYSTEM, "rocketmq");
            span.setAttribute(Spans.ORDER_NO, orderNo);
            try {
                Spans.run(span, ignored -> MutinyBridge.await(() -> handler.onExpiry(orderNo),
                        config.consumer().handleTimeout()));
            } catch (Throwable e) {
                registry.counter("expiry.consumer.retries").increment();
                LOG.warnf("Expiry of %s not handled (attempt %d): %s; retrying later", orderNo,
                        message.getReconsumeTimes() + 1, e.toString());
                context.setDelayLevelWhenNextConsume(config.consumer().retryDelayLevel());
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            }
        }
        return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
    }
}
