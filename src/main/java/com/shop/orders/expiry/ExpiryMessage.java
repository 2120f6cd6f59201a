package com.shop.orders.expiry;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

import com.shop.orders.tracing.TraceContexts;

import io.opentelemetry.api.trace.SpanContext;

/**
 * The expiry message of one order. It carries the order's creation and deadline, so that a check-back
 * can answer from the message alone while the deadline is ahead, and a trace context ({@code trace}), which its
 * check-backs, probes and close link to: read from a received message; for one to send, the trace that placed the
 * order when it is sent again (else invalid: the trace sending it).
 */
record ExpiryMessage(String orderNo, Instant createdAt, Instant deadline, SpanContext trace) {

    private static final String TAG = "expiry";
    private static final String CREATED = "ORDER_CREATED_AT";
    private static final String DEADLINE = "ORDER_PAY_DEADLINE";

    ExpiryMessage(String orderNo, Instant createdAt, Instant deadline) {
        this(orderNo, createdAt, deadline, SpanContext.getInvalid());
    }

    Message toMessage(String topic) {
        Message message = new Message(topic, TAG, orderNo, orderNo.getBytes(StandardCharsets.UTF_8));
        message.putUserProperty(CREATED, Long.toString(createdAt.toEpochMilli()));
        message.putUserProperty(DEADLINE, Long.toString(deadline.toEpochMilli()));
        TraceContexts.inject(message, trace);
        return message;
    }

    /** A message without the times (sent by an older version) reads with nulls: the database has them. */
    static ExpiryMessage of(MessageExt message) {
        return new ExpiryMessage(new String(message.getBody(), StandardCharsets.UTF_8),
                instant(message.getUserProperty(CREATED)), instant(message.getUserProperty(DEADLINE)),
                TraceContexts.extract(message));
    }

    boolean carriesTimes() {
        return createdAt != null && deadline != null;
    }

    private static Instant instant(String epochMillis) {
        try {
            return epochMillis == null ? null : Instant.ofEpochMilli(Long.parseLong(epochMillis));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
