package com.shop.orders.expiry;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.jboss.logging.Logger;

import com.shop.orders.common.RocketMqConfig;

import com.shop.orders.common.MutinyBridge;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * Starts the payment-timeout watch of an order: one transactional half message, sent after the
 * order is committed. If it cannot be sent (broker down) the order is still placed; the sweep
 * closes it after its deadline plus the grace period.
 */
@ApplicationScoped
public class TimeoutWatch {

    private static final Logger LOG = Logger.getLogger(TimeoutWatch.class);

    private final TimeoutTransactionListener listener;
    private final ExpiryConfig config;
    private final RocketMqConfig rocketMq;
    private final MeterRegistry registry;
    private volatile TransactionMQProducer producer;
    private volatile ThreadPoolExecutor checkExecutor;

    public TimeoutWatch(TimeoutTransactionListener listener, ExpiryConfig config, RocketMqConfig rocketMq,
            MeterRegistry registry) {
        this.listener = listener;
        this.config = config;
        this.rocketMq = rocketMq;
        this.registry = registry;
    }

    void onStart(@Observes StartupEvent event) throws MQClientException {
        start();
    }

    void onStop(@Observes ShutdownEvent event) {
        stop();
    }

    /** Fire and forget: placing an order does not wait for, or depend on, the broker. */
    public void startFor(String orderNo, Instant deadline) {
        send(orderNo, deadline).subscribe().with(
                sent -> registry.counter("expiry.watch.started", "result", "sent").increment(),
                failure -> {
                    registry.counter("expiry.watch.started", "result", "failed").increment();
                    LOG.warnf("Timeout watch for %s not started (%s); the sweep will close it if unpaid",
                            orderNo, failure.getMessage());
                });
    }

    /** Sends the half message; its local transaction records the watch and answers UNKNOW. */
    public Uni<Void> send(String orderNo, Instant deadline) {
        return MutinyBridge.blocking(() -> {
            Message message = new Message(config.topic(), "timeout", orderNo, orderNo.getBytes(StandardCharsets.UTF_8));
            try {
                TransactionSendResult result = producer.sendMessageInTransaction(message, deadline);
                if (result.getSendStatus() != SendStatus.SEND_OK) {
                    throw new IllegalStateException("Half message for " + orderNo + ": " + result.getSendStatus());
                }
                return result;
            } catch (MQClientException e) {
                throw new IllegalStateException("Half message for " + orderNo + " not sent", e);
            }
        }).replaceWithVoid();
    }

    public boolean isNameServerReachable() {
        TransactionMQProducer current = producer;
        return current != null && NameServers.isReachable(current.getDefaultMQProducerImpl().getMqClientFactory());
    }

    synchronized void start() throws MQClientException {
        AtomicInteger threads = new AtomicInteger();
        // RocketMQ's default check pool is one thread: checks beyond its queue are dropped yet still counted.
        checkExecutor = new ThreadPoolExecutor(config.checkThreads(), config.checkThreads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(config.checkQueue()),
                runnable -> new Thread(runnable, "timeout-check-" + threads.incrementAndGet()));
        TransactionMQProducer created = new TransactionMQProducer(config.producerGroup());
        created.setNamesrvAddr(rocketMq.nameServer());
        created.setInstanceName("orders-" + UUID.randomUUID());
        created.setVipChannelEnabled(false);
        created.setSendMsgTimeout((int) rocketMq.sendTimeout().toMillis());
        created.setPollNameServerInterval((int) rocketMq.pollNameServerInterval().toMillis());
        created.setExecutorService(checkExecutor);
        created.setTransactionListener(listener);
        created.start();
        producer = created;
    }

    synchronized void stop() {
        if (producer != null) {
            producer.shutdown();
            producer = null;
        }
        if (checkExecutor != null) {
            checkExecutor.shutdownNow();
            checkExecutor = null;
        }
    }
}
