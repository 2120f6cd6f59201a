package com.shop.orders.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.vertx.core.spi.observability.HttpRequest;
import io.vertx.core.spi.tracing.SpanKind;
import io.vertx.core.spi.tracing.TagExtractor;
import io.vertx.core.spi.tracing.VertxTracer;
import io.vertx.core.tracing.TracingPolicy;

/** A SQL statement or Redis command reaches the instrumentation only inside a sampled trace. */
class UnsampledDatabaseCallsSkippedTest {

    private static final Object QUERY = new Object();
    private static final HttpRequest HTTP_CALL = (HttpRequest) Proxy.newProxyInstance(
            HttpRequest.class.getClassLoader(), new Class<?>[] { HttpRequest.class }, (proxy, method, args) -> null);

    private final Instrumentation instrumentation = new Instrumentation();
    private final UnsampledDatabaseCallsSkipped tracer = new UnsampledDatabaseCallsSkipped(instrumentation);

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
            return null;
        }

        @Override
        public <R> void sendResponse(io.vertx.core.Context context, R response, Object payload, Throwable failure,
                TagExtractor<R> tagExtractor) {
        }
    }
}
