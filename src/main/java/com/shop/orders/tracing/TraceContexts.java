package com.shop.orders.tracing;

import java.util.Map;
import java.util.regex.Pattern;

import org.apache.rocketmq.common.message.Message;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;

/**
 * Trace contexts that outlive a request: in a RocketMQ message's user properties (W3C {@code traceparent}), and as
 * text in a row (the order's placement, an outbox event), so that work done later, maybe on another replica, can link
 * to the trace that caused it.
 */
public final class TraceContexts {

    private static final Pattern TRACEPARENT = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final TextMapGetter<Message> PROPERTIES = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Message message) {
            Map<String, String> properties = message.getProperties();
            return properties == null ? java.util.List.of() : properties.keySet();
        }

        @Override
        public String get(Message message, String key) {
            return message == null ? null : message.getUserProperty(key);
        }
    };

    private TraceContexts() {
    }

    /** The current span as a W3C traceparent, or null when no span is being recorded (nothing worth linking to). */
    public static String currentTraceparent() {
        SpanContext span = Span.current().getSpanContext();
        return span.isValid() && span.isSampled()
                ? "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex()
                : null;
    }

    /** The trace id of the current span when it is kept, else null: what an order's timeline shows. */
    public static String currentTraceId() {
        SpanContext span = Span.current().getSpanContext();
        return span.isValid() && span.isSampled() ? span.getTraceId() : null;
    }

    /** A traceparent read back from a row; invalid (links to nothing) when null or not one. */
    public static SpanContext parse(String traceparent) {
        if (traceparent == null || !TRACEPARENT.matcher(traceparent).matches()) {
            return SpanContext.getInvalid();
        }
        return SpanContext.createFromRemoteParent(traceparent.substring(3, 35), traceparent.substring(36, 52),
                TraceFlags.fromHex(traceparent, 53), TraceState.getDefault());
    }

    /** Writes the current trace context into the message's user properties. */
    public static void inject(Message message) {
        inject(message, SpanContext.getInvalid());
    }

    /**
     * Writes a trace context into the message's user properties: {@code cause} when it is valid (a message sent again
     * for an earlier trace), else the current one.
     */
    public static void inject(Message message, SpanContext cause) {
        Context context = cause.isValid() ? Context.root().with(Span.wrap(cause)) : Context.current();
        W3CTraceContextPropagator.getInstance().inject(context, message,
                (carrier, key, value) -> carrier.putUserProperty(key, value));
    }

    /** The trace context a message was sent in; invalid when it carries none (sent untraced, or by an older release). */
    public static SpanContext extract(Message message) {
        return Span.fromContext(W3CTraceContextPropagator.getInstance().extract(Context.root(), message, PROPERTIES))
                .getSpanContext();
    }
}
