package com.shop.orders.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.quarkus.opentelemetry.runtime.QuarkusContextStorage;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Vertx;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.tracing.SpanKind;
import io.vertx.core.spi.tracing.TagExtractor;
import io.vertx.core.spi.tracing.VertxTracer;
import io.vertx.core.tracing.TracingPolicy;

/**
 * What reaches the instrumentation: a request that starts a trace when drawn at the ratio, one that continues a
 * caller's trace always, a SQL statement or Redis command only inside a sampled trace.
 */
class SampleBeforeInstrumentingTest {

    private static final Object QUERY = new Object();
    private static final HttpRequest HTTP_CALL = (HttpRequest) Proxy.newProxyInstance(
            HttpRequest.class.getClassLoader(), new Class<?>[] { HttpRequest.class }, (proxy, method, args) -> null);

    private static final String CALLER_TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";

    private final Instrumentation instrumentation = new Instrumentation();
    private final SampleBeforeInstrumenting tracer = new SampleBeforeInstrumenting(instrumentation, new LinkedSampler(0.0));
    private static Vertx vertx;

    @BeforeAll
    static void startVertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aRequestThatIsNotDrawnRunsInAnUnsampledTraceWithoutReachingTheInstrumentation() {
        io.vertx.core.Context request = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        Object payload = receive(request, List.of(Map.entry("Accept", "application/json")));

        SpanContext current = Span.fromContext(QuarkusContextStorage.getOtelContext(request)).getSpanContext();
        assertTrue(current.isValid(), "what the request causes links to a trace, which is not sampled");
        assertFalse(current.isSampled());
        tracer.sendResponse(request, null, payload, null, TagExtractor.empty());
        assertNull(QuarkusContextStorage.getOtelContext(request), "the response ends the request's trace context");
        assertEquals(List.of(), instrumentation.calls);
    }

    @Test
    void aRequestDrawnAtTheRatioOrContinuingItsCallersTraceReachesTheInstrumentation() {
        SampleBeforeInstrumenting everyRequest = new SampleBeforeInstrumenting(instrumentation, new LinkedSampler(1.0));
        everyRequest.sendResponse(null, null,
                everyRequest.receiveRequest(null, SpanKind.RPC, TracingPolicy.PROPAGATE, HTTP_CALL, "GET", List.of(),
                        TagExtractor.empty()),
                null, TagExtractor.empty());
        tracer.sendResponse(null, null, receive(null, List.of(Map.entry("traceparent", CALLER_TRACE))), null,
                TagExtractor.empty());
        assertEquals(List.of("receive request", "send response", "receive request", "send response"),
                instrumentation.calls);
    }

    @Test
    void aDatabaseCallInASampledTraceIsInstrumentedAndItsResponseEndsIt() {
        try (Scope scope = parent(TraceFlags.getSampled())) {
            Object payload = send(SpanKind.RPC, QUERY);
            tracer.receiveResponse(null, "rows", payload, null, TagExtractor.empty());
        }
        assertEquals(List.of("send", "receive"), instrumentation.calls);
    }

    @Test
    void aDatabaseCallInATraceThatIsNotSampledOrOutsideAnyTraceIsLeftOut() {
        try (Scope scope = parent(TraceFlags.getDefault())) {
            Object payload = send(SpanKind.RPC, QUERY);
            assertNull(payload);
            tracer.receiveResponse(null, "rows", payload, null, TagExtractor.empty());
        }
        assertNull(send(SpanKind.RPC, QUERY));
        assertEquals(List.of(), instrumentation.calls);
    }

    @Test
    void anHttpCallOrAMessageIsInstrumentedEvenWhenNotSampledForItCarriesTheContextOn() {
        try (Scope scope = parent(TraceFlags.getDefault())) {
            send(SpanKind.RPC, HTTP_CALL);
            send(SpanKind.MESSAGING, QUERY);
        }
        assertEquals(List.of("send", "send"), instrumentation.calls);
    }

    private Object receive(io.vertx.core.Context context, List<Map.Entry<String, String>> headers) {
        return tracer.receiveRequest(context, SpanKind.RPC, TracingPolicy.PROPAGATE, HTTP_CALL, "GET", headers,
                TagExtractor.empty());
    }

    private Object send(SpanKind kind, Object request) {
        return tracer.sendRequest(null, kind, TracingPolicy.PROPAGATE, request, "Query", (name, value) -> {
        }, TagExtractor.empty());
    }

    private static Scope parent(TraceFlags flags) {
        SpanContext parent = SpanContext.createFromRemoteParent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7",
                flags, TraceState.getDefault());
        return Context.root().with(Span.wrap(parent)).makeCurrent();
    }

    /** Stands for Quarkus's Vert.x instrumentation: records what reached it. */
    private static final class Instrumentation implements VertxTracer<Object, Object> {

        final List<String> calls = new ArrayList<>();

        @Override
        public <R> Object sendRequest(io.vertx.core.Context context, SpanKind kind, TracingPolicy policy, R request,
                String operation, BiConsumer<String, String> headers, TagExtractor<R> tagExtractor) {
            calls.add("send");
            return "span";
        }

        @Override
        public <R> void receiveResponse(io.vertx.core.Context context, R response, Object payload, Throwable failure,
                TagExtractor<R> tagExtractor) {
            calls.add("receive");
        }

        @Override
        public <R> Object receiveRequest(io.vertx.core.Context context, SpanKind kind, TracingPolicy policy, R request,
                String operation, Iterable<Map.Entry<String, String>> headers, TagExtractor<R> tagExtractor) {
            calls.add("receive request");
            return "span";
        }

        @Override
        public <R> void sendResponse(io.vertx.core.Context context, R response, Object payload, Throwable failure,
                TagExtractor<R> tagExtractor) {
            calls.add("send response");
        }
    }
}
