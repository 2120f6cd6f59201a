package com.shop.orders.expiry;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Named;

import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.jboss.logging.Logger;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderPlaced;
import com.shop.orders.resilience.Bulkhead;
import com.shop.orders.rocketmq.RocketMqClients;
import com.shop.orders.sql.Sql;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.SpanKind;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Sends each order's expiry message: a RocketMQ transactional (half) message that the broker checks back
 * until {@link ExpiryCheck} answers. Sent once placement has committed, without making placement wait; a
 * send that fails leaves the order to the sweep, which sends it again. Every confirmed send is recorded on
 * the order (in batches), so that the sweep knows which orders have none.
 */
@ApplicationScoped
public class ExpiryMessages {

    private static final Logger LOG = Logger.getLogger(ExpiryMessages.class);

    private final ExpiryCheck check;
    private final RocketMqClients clients;
    private final Bulkhead sends;
    private final Pool pool;
    private final ExpiryConfig config;
    private final Spans spans;
    private final OrderEvents events;
    private final Clock clock;
    /** Held rather than looked up by name and tags: one of them counts every order. */
    private final Counter sent;
    private final Counter failed;
    private final ConcurrentLinkedQueue<Long> confirmed = new ConcurrentLinkedQueue<>();
    private final AtomicLong unsentSinceWarning = new AtomicLong();
    private volatile TransactionMQProducer producer;
    private volatile ThreadPoolExecutor checkThreads;

    public ExpiryMessages(ExpiryCheck check, RocketMqClients clients, @Named("rocketmq") Bulkhead sends, Pool pool,
            ExpiryConfig config, Spans spans, OrderEvents events, MeterRegistry registry, Clock clock) {
        this.check = check;
        this.clients = clients;
        this.sends = sends;
        this.pool = pool;
        this.config = config;
        this.spans = spans;
        this.events = events;
        this.clock = clock;
        this.sent = registry.counter("expiry.messages", "result", "sent");
        this.failed = registry.counter("expiry.messages", "result", "failed");
        registry.counter("expiry.messages.resent");
        registry.counter("expiry.messages.renewed");
    }

    void onStart(@Observes StartupEvent event) throws MQClientException {
        start();
    }

    /** First of the shutdown: stop taking check-backs (another instance of the group gets them). */
    void onStop(@Observes @Priority(10) ShutdownEvent event) {
        stop();
    }

    void onPlaced(@Observes OrderPlaced placed) {
        send(placed.orderId(), new ExpiryMessage(placed.orderNo(), placed.createdAt(), placed.payDeadline()))
                .subscribe().with(sent -> {
                }, failure -> {
                });
    }

    /** Sends the order's expiry message; a failure is counted, reported and left to the sweep. */
    Uni<Void> send(long orderId, ExpiryMessage message) {
        // A child of the caller's span; the message carries the trace its check-backs link to.
        return sends.call(() -> Spans.run(spans.start(config.topic() + " send", SpanKind.PRODUCER), span -> {
            span.setAttribute(Spans.MESSAGING_SYSTEM, "rocketmq");
            span.setAttribute(Spans.ORDER_NO, message.orderNo());
            try {
                SendStatus status = producer.sendMessageInTransaction(message.toMessage(config.topic()), null)
                        .getSendStatus();
                if (status != SendStatus.SEND_OK) {
                    throw new IllegalStateException("send status " + status);
                }
                return status;
            } catch (MQClientException e) {
                throw new IllegalStateException(e.getErrorMessage(), e);
            }
        }))
                .invoke(() -> {
                    confirmed.add(orderId);
                    sent.increment();
                })
                .onFailure().invoke(failure -> {
                    unsent(failure);
                    events.note(message.orderNo(), OrderEvents.Kind.EXPIRY_MESSAGE, "failed", "the sweep sends it again");
                })
                .replaceWithVoid();
    }

    /** Records the confirmed sends on their orders, one statement per thousand. */
    @Scheduled(identity = "expiry-message-confirmations", every = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> recordConfirmed() {
        List<Long> ids = new ArrayList<>();
        Long id;
        while (ids.size() < 1000 && (id = confirmed.poll()) != null) {
            ids.add(id);
        }
        if (ids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Sql.InList recorded = Sql.inList(ids);
        return pool.preparedQuery("UPDATE orders SET expiry_message_at = ? WHERE id IN (" + recorded.placeholders() + ")")
                .execute(Tuple.from(Sql.withFirst(Sql.utc(clock.instant()), recorded.values())))
                .onFailure().invoke(e -> {
                    // Not recorded: the sweep will send these again, which is harmless.
                    LOG.debugf("Could not record %d expiry messages as sent: %s", ids.size(), e.toString());
                })
                .onFailure().recoverWithNull()
                // More than a thousand a second: go on with the next thousand now.
                .chain(() -> confirmed.isEmpty() ? Uni.createFrom().voidItem() : recordConfirmed());
    }

    private void unsent(Throwable failure) {
        failed.increment();
        // One line per burst, not one per order while the broker is away.
        if (unsentSinceWarning.getAndIncrement() == 0) {
            LOG.warnf("Expiry message not sent (%s); the sweep sends it again (further failures are counted in "
                    + "expiry_messages_total{result=\"failed\"})", failure.getMessage());
        }
    }

    @Scheduled(identity = "expiry-message-warnings", every = "60s")
    void allowNextWarning() {
        unsentSinceWarning.set(0);
    }

    synchronized void start() throws MQClientException {
        AtomicInteger threads = new AtomicInteger();
        checkThreads = new ThreadPoolExecutor(config.checkThreads(), config.checkThreads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(config.checkQueue()),
                runnable -> new Thread(runnable, "expiry-check-" + threads.incrementAndGet()));
        TransactionMQProducer created = clients.transactionalProducer(config.producerGroup(), check, checkThreads);
        clients.start(created);
        producer = created;
    }

    synchronized void stop() {
        if (producer != null) {
            producer.shutdown();
            producer = null;
        }
        if (checkThreads != null) {
            checkThreads.shutdown();
            checkThreads = null;
        }
    }

    boolean isStarted() {
        return producer != null;
    }
}
