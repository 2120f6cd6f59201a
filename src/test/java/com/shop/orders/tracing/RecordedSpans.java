package com.shop.orders.tracing;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/**
 * The OpenTelemetry SDK with the service's sampler and span processor, keeping every finished span in memory: for unit
 * tests.
 */
public final class RecordedSpans implements SpanExporter {

    private final List<SpanData> finished = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider provider;

    public RecordedSpans(double ratio) {
        this.provider = SdkTracerProvider.builder().setSampler(new LinkedSampler(ratio))
                .addSpanProcessor(new QueryValuesRemoved()).addSpanProcessor(SimpleSpanProcessor.create(this)).build();
    }

    public Tracer tracer() {
        return provider.get("test");
    }

    public Spans spans() {
        return new Spans(tracer());
    }

    /** The finished spans that were kept, in the order they ended. */
    public List<SpanData> finished() {
        return List.copyOf(finished);
    }

    public List<SpanData> named(String name) {
        return finished.stream().filter(span -> span.getName().equals(name)).toList();
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        finished.addAll(spans);
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
