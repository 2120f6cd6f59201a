package com.shop.orders.events;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import com.shop.orders.tracing.TraceContexts;

import io.smallrye.mutiny.Uni;

/** Records events in the outbox; call inside the (Hibernate) transaction that makes the change they report. */
@ApplicationScoped
public class Outbox {

    private final ObjectMapper json;
    private final EventsConfig config;
    private final Clock clock;

    public Outbox(ObjectMapper json, EventsConfig config, Clock clock) {
        this.json = json;
        this.config = config;
        this.clock = clock;
    }

    public Uni<Void> paid(OrderPaidEvent event) {
        return record(config.paidTopic(), event.orderNo(), event);
    }

    public Uni<Void> refunded(OrderRefundedEvent event) {
        return record(config.refundedTopic(), event.orderNo(), event);
    }

    /** Keyed by order number: one order's events reach consumers in the order they were written. */
    private Uni<Void> record(String topic, String orderNo, Object event) {
        OutboxEvent outbox = new OutboxEvent();
        outbox.topic = topic;
        outbox.messageKey = orderNo;
        outbox.createdAt = clock.instant();
        outbox.traceParent = TraceContexts.currentTraceparent();
        try {
            outbox.payload = json.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            return Uni.createFrom().failure(e);
        }
        return outbox.persist().replaceWithVoid();
    }
}
