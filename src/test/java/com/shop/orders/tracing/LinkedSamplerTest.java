package com.shop.orders.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

/** Which spans are kept: parents decide for children, links for new traces, the ratio for the rest. */
class LinkedSamplerTest {

    private static final SpanContext KEPT = context(TraceFlags.getSampled());
    private static final SpanContext DROPPED = context(TraceFlags.getDefault());

    @Test
    void aNewTraceIsKeptAtTheRatio() {
        assertTrue(new RecordedSpans(1.0).spans().start("expiry sweep", SpanKind.INTERNAL).isRecording());
        assertFalse(new RecordedSpans(0.0).spans().start("expiry sweep", SpanKind.INTERNAL).isRecording());
    }

    @Test
    void aRequestIsDrawnAtTheRatioBeforeItsSpanIsBuiltAndTheSpanThenKept() {
        assertTrue(new LinkedSampler(1.0).drawsNewRequest());
        assertFalse(new LinkedSampler(0.0).drawsNewRequest());
        LinkedSampler tenth = new LinkedSampler(0.1);
        long drawn = java.util.stream.IntStream.range(0, 100_000).filter(i -> tenth.drawsNewRequest()).count();
        assertTrue(drawn > 9_000 && drawn < 11_000, drawn + " of 100,000 requests drawn at 0.1");
        assertTrue(new RecordedSpans(0.0).spans().start("POST /api/orders", SpanKind.SERVER).isRecording());
    }

    @Test
    void aNewTraceLinkedToAKeptOneIsKeptWhateverTheRatioAndOneLinkedToADroppedOneIsDropped() {
        assertTrue(new RecordedSpans(0.0).spans().startLinked("order-expiry check", SpanKind.CONSUMER, KEPT).isRecording());
        assertFalse(new RecordedSpans(1.0).spans().startLinked("order-expiry check", SpanKind.CONSUMER, DROPPED)
                .isRecording());
        // A message sent untraced links to nothing: the ratio decides.
        assertTrue(new RecordedSpans(1.0).spans().startLinked("order-expiry check", SpanKind.CONSUMER,
                SpanContext.getInvalid()).isRecording());
    }

    @Test
    void aClientCallOutsideAnyTraceIsNotKept() {
        RecordedSpans recorded = new RecordedSpans(1.0);
        assertFalse(recorded.spans().start("SELECT orders", SpanKind.CLIENT).isRecording());
        Span job = recorded.spans().start("expiry sweep", SpanKind.INTERNAL);
        try (Scope scope = job.makeCurrent()) {
            assertTrue(recorded.spans().start("SELECT orders", SpanKind.CLIENT).isRecording());
        } finally {
            job.end();
        }
    }

    @Test
    void aChildFollowsItsParent() {
        try (Scope scope = Context.root().with(Span.wrap(KEPT)).makeCurrent()) {
            Span child = new RecordedSpans(0.0).spans().start("alipay query", SpanKind.CLIENT);
            assertTrue(child.isRecording());
            assertEquals(KEPT.getTraceId(), child.getSpanContext().getTraceId());
        }
        try (Scope scope = Context.root().with(Span.wrap(DROPPED)).makeCurrent()) {
            assertFalse(new RecordedSpans(1.0).spans().start("alipay query", SpanKind.CLIENT).isRecording());
        }
    }

    private static SpanContext context(TraceFlags flags) {
        return SpanContext.createFromRemoteParent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", flags,
                TraceState.getDefault());
    }
}
