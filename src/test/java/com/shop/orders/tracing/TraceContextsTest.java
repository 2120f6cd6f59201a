package com.shop.orders.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;

/** Trace contexts kept in a row or a message come back as they were, and nothing else reads as one. */
class TraceContextsTest {

    @Test
    void theCurrentSpanRoundTripsThroughARowAndAMessage() {
        RecordedSpans recorded = new RecordedSpans(1.0);
        Span placing = recorded.spans().start("POST /api/orders", SpanKind.SERVER);
        String traceparent;
        Message message = new Message("order-expiry", "expiry", "A", new byte[0]);
        try (Scope scope = placing.makeCurrent()) {
            traceparent = TraceContexts.currentTraceparent();
            TraceContexts.inject(message);
            assertEquals(placing.getSpanContext().getTraceId(), TraceContexts.currentTraceId());
        } finally {
            placing.end();
        }
        SpanContext fromRow = TraceContexts.parse(traceparent);
        SpanContext fromMessage = TraceContexts.extract(message);
        for (SpanContext read : new SpanContext[] { fromRow, fromMessage }) {
            assertEquals(placing.getSpanContext().getTraceId(), read.getTraceId());
            assertEquals(placing.getSpanContext().getSpanId(), read.getSpanId());
            assertTrue(read.isSampled());
        }
        assertEquals("00-" + placing.getSpanContext().getTraceId() + "-" + placing.getSpanContext().getSpanId() + "-01",
                traceparent);
    }

    @Test
    void aMessageSentAgainCarriesTheTraceItIsSentFor() {
        SpanContext placed = TraceContexts.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        Message message = new Message("order-expiry", "expiry", "A", new byte[0]);
        TraceContexts.inject(message, placed);
        assertEquals(placed.getSpanId(), TraceContexts.extract(message).getSpanId());
    }

    @Test
    void nothingKeptReadsAsNoContext() {
        assertNull(TraceContexts.currentTraceparent());
        assertNull(TraceContexts.currentTraceId());
        for (String text : new String[] { null, "", "not a traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" }) {
            assertFalse(TraceContexts.parse(text).isValid(), String.valueOf(text));
        }
        assertFalse(TraceContexts.extract(new Message("order-expiry", "expiry", "A", new byte[0])).isValid());
        // A span that is not kept is nothing to link to.
        Span dropped = new RecordedSpans(0.0).spans().start("expiry sweep", SpanKind.INTERNAL);
        try (Scope scope = dropped.makeCurrent()) {
            assertNull(TraceContexts.currentTraceparent());
        }
    }
}
