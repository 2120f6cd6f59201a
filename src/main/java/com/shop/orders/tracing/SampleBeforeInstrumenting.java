package com.shop.orders.tracing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.trace.IdGenerator;
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
 * Takes the sampling decision before Quarkus's Vert.x instrumentation builds a span, for what it would build only to
 * drop:
 * <ul>
 * <li>a request that starts a new trace reaches the instrumentation only when {@link LinkedSampler} draws it at the
 * ratio; any other runs in a trace that is not sampled (a valid, unsampled span context, as the SDK would have made):
 * its log lines carry ids, and what it causes later (check-backs, expiry, events) is dropped with it;</li>
 * <li>a request that continues a caller's trace ({@code traceparent}) always reaches it: the parent decides;</li>
 * <li>a SQL statement or Redis command reaches it only inside a sampled trace (a client span follows its parent);</li>
 * <li>HTTP client calls always do, since they carry the trace context (sampled or not) on to the server.</li>
 * </ul>
 * The instrumentation builds every span in full (its attributes: the URL parsed, the client address, the SQL text
 * sanitized) before the sampler is asked; at a ratio of 0.1 a profile put its HTTP and SQL instrumenters, mostly on
 * such dropped spans, first among what tracing cost (docs/benchmark.md, "Tracing"). Sampled traces keep all their spans.
 */
public final class SampleBeforeInstrumenting implements VertxTracer<Object, Object> {

    private static final TextMapGetter<Iterable<Map.Entry<String, String>>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Iterable<Map.Entry<String, String>> headers) {
            List<String> keys = new ArrayList<>();
            headers.forEach(header -> keys.add(header.getKey()));
            return keys;
        }

        @Override
        public String get(Iterable<Map.Entry<String, String>> headers, String key) {
            if (headers != null) {
                for (Map.Entry<String, String> header : headers) {
                    if (header.getKey().equalsIgnoreCase(key)) {
                        return header.getValue();
                    }
                }
            }
            return null;
        }
    };

    private final VertxTracer<Object, Object> instrumentation;
    private final LinkedSampler sampler;

    SampleBeforeInstrumenting(VertxTracer<Object, Object> instrumentation, LinkedSampler sampler) {
        this.instrumentation = instrumentation;
        this.sampler = sampler;
    }

    /** Wraps the instrumentation Quarkus installed into Vert.x; nothing to wrap when the SDK is disabled. */
    @Singleton
    static class Installer {

        @SuppressWarnings("unchecked")
        void install(@Observes StartupEvent event, LinkedSampler sampler) {
            VertxDelegator delegator = InstrumentationRecorder.FACTORY.getVertxTracerDelegator();
            VertxTracer<Object, Object> installed = delegator.getDelegate();
            if (installed != null && !(installed instanceof SampleBeforeInstrumenting)) {
                delegator.setDelegate(new SampleBeforeInstrumenting(installed, sampler));
            }
        }
    }

    /** A request traced without a span: the scope that holds its unsampled trace context until the response. */
    private record Unsampled(Scope scope) {
    }

    @Override
    public <R> Object receiveRequest(Context context, SpanKind kind, TracingPolicy policy, R request, String operation,
            Iterable<Map.Entry<String, String>> headers, TagExtractor<R> tagExtractor) {
        if (!(request instanceof HttpRequest) || continuesTrace(headers) || sampler.drawsNewRequest()) {
            return instrumentation.receiveRequest(context, kind, policy, request, operation, headers, tagExtractor);
        }
        SpanContext unsampled = SpanContext.create(IdGenerator.random().generateTraceId(),
                IdGenerator.random().generateSpanId(), TraceFlags.getDefault(), TraceState.getDefault());
        return new Unsampled(QuarkusContextStorage.INSTANCE.attach(context, parent(context).with(Span.wrap(unsampled))));
    }

    @Override
    public <R> void sendResponse(Context context, R response, Object payload, Throwable failure,
            TagExtractor<R> tagExtractor) {
        if (payload instanceof Unsampled request) {
            request.scope().close();
        } else {
            instrumentation.sendResponse(context, response, payload, failure, tagExtractor);
        }
    }

    @Override
    public <R> Object sendRequest(Context context, SpanKind kind, TracingPolicy policy, R request, String operation,
            BiConsumer<String, String> headers, TagExtractor<R> tagExtractor) {
        if (isDatabaseCall(kind, request) && !Span.fromContext(parent(context)).getSpanContext().isSampled()) {
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
    public void close() {
        instrumentation.close();
    }

    /** The SQL and Redis clients report their calls as RPC requests that are not HTTP (no event bus is used here). */
    static boolean isDatabaseCall(SpanKind kind, Object request) {
        return kind == SpanKind.RPC && !(request instanceof HttpRequest);
    }

    /** Whether a request carries a valid W3C trace context from its caller. */
    static boolean continuesTrace(Iterable<Map.Entry<String, String>> headers) {
        return Span.fromContext(W3CTraceContextPropagator.getInstance()
                .extract(io.opentelemetry.context.Context.root(), headers, HEADERS)).getSpanContext().isValid();
    }

    /** The parent the instrumentation would use: the request's context stored on Vert.x, else the current one. */
    private static io.opentelemetry.context.Context parent(Context context) {
        io.opentelemetry.context.Context parent = QuarkusContextStorage.getOtelContext(context);
        return parent != null ? parent : io.opentelemetry.context.Context.current();
    }
}
