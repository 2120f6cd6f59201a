package com.shop.orders.tracing;

import java.util.Map;
import java.util.function.BiConsumer;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.opentelemetry.api.trace.Span;
import io.quarkus.opentelemetry.runtime.QuarkusContextStorage;
import io.quarkus.opentelemetry.runtime.tracing.instrumentation.InstrumentationRecorder;
import io.quarkus.opentelemetry.runtime.tracing.instrumentation.vertx.OpenTelemetryVertxTracingFactory.VertxDelegator;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Context;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.tracing.SpanKind;
import io.vertx.core.spi.tracing.TagExtractor;
import io.vertx.core.spi.tracing.VertxTracer;
import io.vertx.core.tracing.TracingPolicy;

/**
 * Leaves out the span of a SQL statement or Redis command whose parent span is not sampled.
 * <p>
 * Quarkus's Vert.x instrumentation builds every such span in full (its attributes, the SQL text sanitized) before the
 * sampler is asked, and {@link LinkedSampler} then drops it: a client span follows its parent, and one outside any
 * trace is never kept. At a ratio of 0.1 a profile put Quarkus's HTTP and SQL instrumenters, mostly on such dropped
 * spans, first among what tracing cost (README, "Benchmark"). The decision is the sampler's own, made before the span
 * instead of after it; sampled traces keep all their SQL and Redis spans.
 * HTTP client calls always go through, since they carry the trace context (sampled or not) on to the server.
 */
public final class UnsampledDatabaseCallsSkipped implements VertxTracer<Object, Object> {

    private final VertxTracer<Object, Object> instrumentation;

    UnsampledDatabaseCallsSkipped(VertxTracer<Object, Object> instrumentation) {
        this.instrumentation = instrumentation;
    }

    /** Wraps the instrumentation Quarkus installed into Vert.x; nothing to wrap when the SDK is disabled. */
    @Singleton
    static class Installer {

        @SuppressWarnings("unchecked")
        void install(@Observes StartupEvent event) {
            VertxDelegator delegator = InstrumentationRecorder.FACTORY.getVertxTracerDelegator();
            VertxTracer<Object, Object> installed = delegator.getDelegate();
            if (installed != null && !(installed instanceof UnsampledDatabaseCallsSkipped)) {
                delegator.setDelegate(new UnsampledDatabaseCallsSkipped(installed));
            }
        }
    }

    @Override
    public <R> Object sendRequest(Context context, SpanKind kind, TracingPolicy policy, R request, String operation,
            BiConsumer<String, String> headers, TagExtractor<R> tagExtractor) {
        if (isDatabaseCall(kind, request) && !parentSampled(context)) {
            return null;
        }
        return instrumentation.sendRequest(context, kind, policy, request, operation, headers, tagExtractor);
    }

    @Override
    public <R> void receiveResponse(Context context, R response, Object payload, Throwable failure,
            TagExtractor<R> tagExtractor) {
        if (payload != null) {
            instrumentation.receiveResponse(context, response, payload, failure, tagExtractor);
        }
    }

    @Override
    public <R> Object receiveRequest(Context context, SpanKind kind, TracingPolicy policy, R request, String operation,
            Iterable<Map.Entry<String, String>> headers, TagExtractor<R> tagExtractor) {
        return instrumentation.receiveRequest(context, kind, policy, request, operation, headers, tagExtractor);
    }

    @Override
    public <R> void sendResponse(Context context, R response, Object payload, Throwable failure,
            TagExtractor<R> tagExtractor) {
        instrumentation.sendResponse(context, response, payload, failure, tagExtractor);
    }

    @Override
    public void close() {
        instrumentation.close();
    }

    /** The SQL and Redis clients report their calls as RPC requests that are not HTTP (no event bus is used here). */
    static boolean isDatabaseCall(SpanKind kind, Object request) {
        return kind == SpanKind.RPC && !(request instanceof HttpRequest);
    }

    /** The parent the instrumentation would use: the request's context stored on Vert.x, else the current one. */
    private static boolean parentSampled(Context context) {
        io.opentelemetry.context.Context parent = QuarkusContextStorage.getOtelContext(context);
        if (parent == null) {
            parent = io.opentelemetry.context.Context.current();
        }
        return Span.fromContext(parent).getSpanContext().isSampled();
    }
}
