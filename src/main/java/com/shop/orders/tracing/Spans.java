package com.shop.orders.tracing;

import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.shop.orders.resilience.MutinyBridge;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.smallrye.mutiny.Uni;

/**
 * Starts the service's own spans (Quarkus makes those of HTTP, SQL and Redis). A span of work that comes back later
 * for an earlier trace (a check-back minutes after the placement, on any replica) starts a trace of its own, linked
 * to the earlier one: it is not a child of a request that has long ended. {@link LinkedSampler} keeps it when the
 * linked trace was kept.
 */
@ApplicationScoped
public class Spans {

    /** The order a span is about (its number, which is no secret: it is on the member's receipt). */
    public static final AttributeKey<String> ORDER_NO = AttributeKey.stringKey("shop.order.no");
    public static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");

    /** Blocking work inside a span. */
    @FunctionalInterface
    public interface Work<T, E extends Throwable> {
        T run(Span span) throws E;
    }

    private final Tracer tracer;

    /** With tracing off (OTEL_SDK_DISABLED), no span at all: nothing would be exported, no trace id is worth showing. */
    @Inject
    public Spans(Tracer tracer, @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false") boolean off) {
        this(off ? TracerProvider.noop().get("order-service") : tracer);
    }

    public Spans(Tracer tracer) {
        this.tracer = tracer;
    }

    /** A child of the current span (or a new trace when there is none). */
    public Span start(String name, SpanKind kind) {
        return tracer.spanBuilder(name).setSpanKind(kind).startSpan();
    }

    /** A child of the current span, linked to {@code cause} (another trace it works for) when that is valid. */
    public Span start(String name, SpanKind kind, SpanContext cause) {
        SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(kind);
        if (cause.isValid()) {
            builder.addLink(cause);
        }
        return builder.startSpan();
    }

    /** A new trace, linked to {@code cause} when it is valid. */
    public Span startLinked(String name, SpanKind kind, SpanContext cause) {
        SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(kind).setNoParent();
        if (cause.isValid()) {
            builder.addLink(cause);
        }
        return builder.startSpan();
    }

    /**
     * A span that continues {@code earlier}, a trace whose request has ended (the checkout a payment completes), as
     * its child, linked to the current span (the request that brought the news); a child of the current span when
     * {@code earlier} is not valid.
     */
    public Span startContinuing(String name, SpanKind kind, SpanContext earlier) {
        if (!earlier.isValid()) {
            return start(name, kind);
        }
        SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(kind).setParent(Context.root().with(Span.wrap(earlier)));
        SpanContext current = Span.current().getSpanContext();
        if (current.isValid()) {
            builder.addLink(current);
        }
        return builder.startSpan();
    }

    /**
     * Runs the pipeline on a Vert.x context of its own with {@code span} current (its SQL, Redis and Alipay spans are
     * children), and ends the span when the pipeline ends; a failure marks it as an error.
     */
    public <T> Uni<T> within(Span span, Supplier<Uni<T>> pipeline) {
        return MutinyBridge.onOwnContext(Context.current().with(span), pipeline)
                .onItemOrFailure().invoke((item, failure) -> end(span, failure));
    }

    /** Runs blocking work with {@code span} current on this thread, and ends the span with the work. */
    public static <T, E extends Throwable> T run(Span span, Work<T, E> work) throws E {
        try (Scope scope = span.makeCurrent()) {
            T result = work.run(span);
            span.end();
            return result;
        } catch (Throwable failure) {
            end(span, failure);
            throw failure;
        }
    }

    /** Ends the span, as an error when {@code failure} is not null (its type only: messages may carry data). */
    public static void end(Span span, Throwable failure) {
        if (failure != null) {
            span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
        }
        span.end();
    }
}
