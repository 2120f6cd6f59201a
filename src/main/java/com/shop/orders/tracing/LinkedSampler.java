package com.shop.orders.tracing;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import io.quarkus.arc.Unremovable;

/**
 * Decides which traces are kept (Quarkus uses this bean instead of {@code quarkus.otel.traces.sampler}):
 * <ul>
 * <li>a span with a parent follows its parent;</li>
 * <li>a new trace linked to others (a check-back, an expiry, a published event: each links to the trace that placed or
 * paid its order) is kept when one of them was, so that an order's whole life is kept or dropped together;</li>
 * <li>a client call outside any trace (a background job's SQL statement or Redis command) is not kept: the work worth
 * tracing runs inside a span of its own;</li>
 * <li>a request that starts a new trace was drawn at the ratio before its span was built ({@link #drawsNewRequest},
 * asked by {@link SampleBeforeInstrumenting}), so its server span is kept;</li>
 * <li>any other new trace (the sweep, the reconciliation) is kept at the ratio {@code quarkus.otel.traces.sampler.arg}
 * (OTEL_TRACES_SAMPLER_ARG).</li>
 * </ul>
 */
@Singleton
@Unremovable
public class LinkedSampler implements Sampler {

    private final double ratio;
    private final Sampler parentOrRatio;

    public LinkedSampler(@ConfigProperty(name = "quarkus.otel.traces.sampler.arg", defaultValue = "1.0") double ratio) {
        this.ratio = ratio;
        this.parentOrRatio = Sampler.parentBased(Sampler.traceIdRatioBased(ratio));
    }

    /** Whether a request that starts a new trace is traced: true at the ratio, drawn before anything is built for it. */
    public boolean drawsNewRequest() {
        return ratio >= 1.0 || ThreadLocalRandom.current().nextDouble() < ratio;
    }

    @Override
    public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
            Attributes attributes, List<LinkData> parentLinks) {
        if (!Span.fromContext(parentContext).getSpanContext().isValid()) {
            if (!parentLinks.isEmpty()) {
                return parentLinks.stream().anyMatch(link -> link.getSpanContext().isSampled())
                        ? SamplingResult.recordAndSample() : SamplingResult.drop();
            }
            if (spanKind == SpanKind.CLIENT) {
                return SamplingResult.drop();
            }
            if (spanKind == SpanKind.SERVER) {
                return SamplingResult.recordAndSample();
            }
        }
        return parentOrRatio.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
    }

    @Override
    public String getDescription() {
        return "LinkedSampler{" + parentOrRatio.getDescription() + "}";
    }
}
