package com.shop.orders.events;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.jboss.logging.Logger;

import com.shop.orders.common.MutinyBridge;
import com.shop.orders.common.RocketMqConfig;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Publishes outbox events to RocketMQ in order, keyed by order number, and marks them
 * published. While the broker is down they wait in the outbox. Delivery is at least once
 * (a crash between send and mark, or two instances relaying): consumers dedupe by key.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    private final EventsConfig config;
    private final RocketMqConfig rocketMq;
    private final Clock clock;
    private volatile DefaultMQProducer producer;

    public OutboxRelay(EventsConfig config, RocketMqConfig rocketMq, Clock clock) {
        this.config = config;
        this.rocketMq = rocketMq;
        this.clock = clock;
    }

    void onStart(@Observes StartupEvent event) throws MQClientException {
        DefaultMQProducer created = new DefaultMQProducer(config.producerGroup());
        created.setNamesrvAddr(rocketMq.nameServer());
        created.setInstanceName("orders-" + UUID.randomUUID());
        created.setVipChannelEnabled(false);
        created.setSendMsgTimeout((int) rocketMq.sendTimeout().toMillis());
        created.setRetryTimesWhenSendFailed(0);
        created.start();
        producer = created;
    }

    void onStop(@Observes ShutdownEvent event) {
        if (producer != null) {
            producer.shutdown();
        }
    }

    @Scheduled(identity = "outbox-relay", every = "${events.relay-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> relay() {
        return Panache.withSession(() -> OutboxEvent.<OutboxEvent> find("publishedAt is null order by id")
                .page(0, config.relayBatch()).list())
                .chain(this::publishInOrder)
                .onFailure().invoke(e -> LOG.debugf("Outbox relay paused: %s", e.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Stops at the first failure so that events leave in the order they were written. */
    private Uni<Void> publishInOrder(List<OutboxEvent> events) {
        return Multi.createFrom().iterable(events)
                .onItem().transformToUniAndConcatenate(event -> send(event)
                        .chain(() -> Panache.withTransaction(() -> OutboxEvent.update(
                                "publishedAt = ?1, attempts = attempts + 1 where id = ?2", clock.instant(), event.id))))
                .collect().last()
                .replaceWithVoid();
    }

    private Uni<Void> send(OutboxEvent event) {
        return MutinyBridge.blocking(() -> {
            Message message = new Message(event.topic, "", event.messageKey, event.payload.getBytes(StandardCharsets.UTF_8));
            try {
                SendStatus status = producer.send(message).getSendStatus();
                if (status != SendStatus.SEND_OK) {
                    throw new IllegalStateException("Event " + event.id + ": " + status);
                }
                return status;
            } catch (Exception e) {
                throw new IllegalStateException("Event " + event.id + " not published", e);
            }
        }).replaceWithVoid();
    }
}
