package com.shop.orders.events;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Named;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.jboss.logging.Logger;

import com.shop.orders.resilience.Backoff;
import com.shop.orders.resilience.Bulkhead;
import com.shop.orders.rocketmq.RocketMqClients;
import com.shop.orders.sql.Claims;
import com.shop.orders.sql.Sql;
import com.shop.orders.tracing.Spans;
import com.shop.orders.tracing.TraceContexts;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Publishes outbox events to RocketMQ. Each relay pass claims a batch (replicas claim disjoint batches),
 * sends it and records what was sent, so that each event is published once in the normal case and at
 * least once after a crash. One order's events go to one queue, in the order they were written. A failed
 * event is tried again after a growing pause, reported at WARN and counted.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    /** Same key, same queue: consumers see one order's events in order. */
    private static final MessageQueueSelector BY_KEY = (queues, message, key) -> queues
            .get(Math.floorMod(key.hashCode(), queues.size()));

    /** {@code writtenIn}: the trace that wrote the event (W3C traceparent), or null. */
    private record Claimed(long id, String topic, String key, String payload, int attempts, String writtenIn) {
    }

    private final Pool pool;
    private final RocketMqClients clients;
    private final Bulkhead sends;
    private final EventsConfig config;
    private final Backoff backoff;
    private final Spans spans;
    private final Clock clock;
    private final Counter published;
    private final Counter publishFailures;
    private final AtomicLong backlog = new AtomicLong();
    private volatile DefaultMQProducer producer;

    public OutboxRelay(Pool pool, RocketMqClients clients, @Named("rocketmq") Bulkhead sends, EventsConfig config,
            Spans spans, MeterRegistry registry, Clock clock) {
        this.pool = pool;
        this.clients = clients;
        this.sends = sends;
        this.config = config;
        this.backoff = new Backoff(config.retryBackoff(), config.retryBackoffMax());
        this.spans = spans;
        this.clock = clock;
        Gauge.builder("outbox.backlog", backlog, AtomicLong::get)
                .description("Events written but not yet published").register(registry);
        this.published = registry.counter("outbox.published");
        this.publishFailures = registry.counter("outbox.publish.failures");
    }

    void onStart(@Observes StartupEvent event) throws MQClientException {
        DefaultMQProducer created = clients.producer(config.producerGroup());
        clients.start(created);
        producer = created;
    }

    void onStop(@Observes ShutdownEvent event) {
        if (producer != null) {
            producer.shutdown();
        }
    }

    @Scheduled(identity = "outbox-relay", every = "${shop.events.relay-every}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return relay()
                .onFailure().invoke(e -> LOG.warnf("Outbox relay pass failed: %s", e.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** One pass: claim, publish, record. Answers how many events were published. */
    public Uni<Integer> relay() {
        Instant now = clock.instant();
        return claim(now)
                .chain(this::publish)
                .call(() -> countBacklog());
    }

    private Uni<List<Claimed>> claim(Instant now) {
        return Claims.inTransaction(pool, connection -> connection
                .preparedQuery("SELECT id, topic, message_key, payload, attempts, trace_parent FROM outbox_event "
                        + "WHERE published_at IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= ?) "
                        + "ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED")
                .execute(Tuple.of(Sql.utc(now), config.relayBatch()))
                .map(rows -> {
                    List<Claimed> claimed = new ArrayList<>();
                    for (Row row : rows) {
                        claimed.add(new Claimed(row.getLong("id"), row.getString("topic"), row.getString("message_key"),
                                row.getString("payload"), row.getInteger("attempts"), row.getString("trace_parent")));
                    }
                    return claimed;
                })
                .call(claimed -> claimed.isEmpty() ? Uni.createFrom().voidItem()
                        : Claims.leaseUntil(connection, "outbox_event", claimed.stream().map(Claimed::id).toList(),
                                now.plus(config.claimLease()))));
    }

    /** Keys are published concurrently; the events of one key one after the other, stopping at its first failure. */
    private Uni<Integer> publish(List<Claimed> claimed) {
        if (claimed.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        Map<String, List<Claimed>> byKey = new LinkedHashMap<>();
        claimed.forEach(event -> byKey.computeIfAbsent(event.key(), k -> new ArrayList<>()).add(event));
        return Multi.createFrom().iterable(byKey.values())
                .onItem().transformToUni(this::publishInOrder).merge(8)
                .collect().asList()
                .map(counts -> counts.stream().mapToInt(Integer::intValue).sum());
    }

    private Uni<Integer> publishInOrder(List<Claimed> events) {
        return Multi.createFrom().iterable(events)
                .onItem().transformToUniAndConcatenate(event -> send(event).chain(() -> markPublished(event)))
                .collect().with(java.util.stream.Collectors.counting())
                .map(Long::intValue)
                .onFailure(PublishFailed.class).recoverWithUni(failure -> markFailed((PublishFailed) failure)
                        .replaceWith(0));
    }

    /**
     * Each publication a trace of its own, linked to the one that wrote the event (the notify, say), whose context the
     * message carries on to its consumers.
     */
    private Uni<Void> send(Claimed event) {
        return sends.call(() -> Spans.run(spans.startLinked(event.topic() + " publish", SpanKind.PRODUCER,
                TraceContexts.parse(event.writtenIn())), span -> {
            span.setAttribute(Spans.MESSAGING_SYSTEM, "rocketmq");
            span.setAttribute(Spans.ORDER_NO, event.key());
            Message message = new Message(event.topic(), "", event.key(), event.payload().getBytes(StandardCharsets.UTF_8));
            TraceContexts.inject(message);
            try {
                SendStatus status = producer.send(message, BY_KEY, event.key()).getSendStatus();
                if (status != SendStatus.SEND_OK) {
                    throw new IllegalStateException("send status " + status);
                }
                return status;
            } catch (Exception e) {
                throw new PublishFailed(event, e);
            }
        })).onFailure(f -> !(f instanceof PublishFailed)).transform(f -> new PublishFailed(event, f))
                .replaceWithVoid();
    }

    private Uni<Void> markPublished(Claimed event) {
        return pool.preparedQuery("UPDATE outbox_event SET published_at = ?, attempts = attempts + 1, "
                + "next_attempt_at = NULL, last_error = NULL WHERE id = ?")
                .execute(Tuple.of(Sql.utc(clock.instant()), event.id()))
                .invoke(() -> published.increment())
                .replaceWithVoid();
    }

    private Uni<Void> markFailed(PublishFailed failure) {
        Claimed event = failure.event;
        Duration wait = backoff.after(event.attempts() + 1);
        String error = String.valueOf(failure.getCause());
        publishFailures.increment();
        LOG.warnf("Outbox event %d (key %s) not published, attempt %d: %s; next attempt in %s", event.id(), event.key(),
                event.attempts() + 1, error, wait);
        return pool.preparedQuery("UPDATE outbox_event SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? "
                + "WHERE id = ?")
                .execute(Tuple.of(Sql.utc(clock.instant().plus(wait)),
                        error.length() > 500 ? error.substring(0, 500) : error, event.id()))
                .replaceWithVoid();
    }

    private Uni<Void> countBacklog() {
        return pool.query("SELECT COUNT(*) FROM outbox_event WHERE published_at IS NULL").execute()
                .invoke(rows -> backlog.set(rows.iterator().next().getLong(0)))
                .replaceWithVoid();
    }

    private static final class PublishFailed extends RuntimeException {
        private final transient Claimed event;

        PublishFailed(Claimed event, Throwable cause) {
            super("Event " + event.id() + " not published", cause, false, false);
            this.event = event;
        }
    }
}
