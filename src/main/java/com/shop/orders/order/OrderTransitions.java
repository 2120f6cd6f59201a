package com.shop.orders.order;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.pubsub.ReactivePubSubCommands;
import io.quarkus.scheduler.Scheduled;

/**
 * Announces every transition out of PENDING_PAYMENT to this instance (CDI event {@link OrderTransition})
 * and, over Redis pub/sub, to every other instance, which fires the same event there. Observers (the
 * expiry check-back's knowledge of decided orders, live status streams) then learn of a payment or a close
 * wherever it happened. Best effort: without Redis only this instance hears of it, and every observer must
 * be correct without the announcement (the database stays the truth).
 */
@ApplicationScoped
public class OrderTransitions {

    private static final Logger LOG = Logger.getLogger(OrderTransitions.class);
    static final String CHANNEL = "shop:order-transitions";

    private final Event<OrderTransition> local;
    private final ReactivePubSubCommands<String> pubsub;
    private final ObjectMapper json;
    private final MeterRegistry registry;
    private final String instanceId = UUID.randomUUID().toString();
    private final AtomicBoolean subscribed = new AtomicBoolean();

    public OrderTransitions(Event<OrderTransition> local, ReactiveRedisDataSource redis, ObjectMapper json,
            MeterRegistry registry) {
        this.local = local;
        this.pubsub = redis.pubsub(String.class);
        this.json = json;
        this.registry = registry;
        registry.counter("orders.transitions.unannounced");
    }

    /** Call once the transaction that made the transition has committed. */
    public void announce(OrderTransition transition) {
        local.fire(transition);
        pubsub.publish(CHANNEL, instanceId + " " + toJson(transition)).subscribe().with(
                sent -> {
                },
                failure -> {
                    registry.counter("orders.transitions.unannounced").increment();
                    LOG.debugf("Transition of %s not announced to other instances: %s", transition.orderNo(), failure);
                });
    }

    /** Subscribes at start and again whenever the subscription was lost (Redis restarted or unreachable). */
    @Scheduled(identity = "order-transitions-subscription", every = "5s", delay = 0,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void keepSubscribed() {
        if (!subscribed.compareAndSet(false, true)) {
            return;
        }
        pubsub.subscribe(CHANNEL, this::onMessage, () -> subscribed.set(false), failure -> subscribed.set(false))
                .subscribe().with(
                        subscriber -> LOG.debug("Listening for order transitions of other instances"),
                        failure -> subscribed.set(false));
    }

    public boolean isSubscribed() {
        return subscribed.get();
    }

    private void onMessage(String message) {
        int space = message.indexOf(' ');
        if (space < 0 || message.substring(0, space).equals(instanceId)) {
            return;
        }
        try {
            local.fire(json.readValue(message.substring(space + 1), OrderTransition.class));
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.debugf("Ignored an unreadable order transition: %s", e.getMessage());
        }
    }

    private String toJson(OrderTransition transition) {
        try {
            return json.writeValueAsString(transition);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An order transition is plain data", e);
        }
    }
}
