package com.shop.orders.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.order.OrderTransition;
import com.shop.orders.tracing.RecordedSpans;
import com.shop.orders.tracing.Spans;
import com.shop.orders.tracing.TraceContexts;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;

/** The check-back answers from the message and from memory, with a fixed clock; no broker, no database. */
class ExpiryCheckTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final PaymentProbe probe = mock(PaymentProbe.class);
    private final OrderRepository orders = mock(OrderRepository.class);
    private final ExpiryConfig config = mock(ExpiryConfig.class);
    private final OrderEvents events = mock(OrderEvents.class);
    private DecidedOrders decided;
    private ExpiryCheck check;

    @BeforeEach
    void setUp() {
        when(config.brokerCheckMax()).thenReturn(15);
        when(config.topic()).thenReturn("order-expiry");
        when(config.decidedOrdersRemembered()).thenReturn(2);
        when(config.checkTimeout()).thenReturn(Duration.ofSeconds(1));
        decided = new DecidedOrders(config);
        check = new ExpiryCheck(decided, probe, orders, config, new Spans(TracerProvider.noop().get("test")), events,
                new SimpleMeterRegistry(), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void waitsWithoutAnyIoAndStartsAProbe() {
        MessageExt message = message("A", NOW.minusSeconds(90), NOW.plusSeconds(30), 4);
        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(message));
        verify(probe).probeIfDue(any(), any());
        verifyNoInteractions(orders);
    }

    @Test
    void commitsAtTheDeadlineWithoutAProbe() {
        assertEquals(LocalTransactionState.COMMIT_MESSAGE,
                check.checkLocalTransaction(message("A", NOW.minusSeconds(300), NOW, 7)));
        verify(probe, never()).probeIfDue(any(), any());
        verifyNoInteractions(orders);
    }

    @Test
    void rollsBackAnOrderAnnouncedAsDecided() {
        decided.onTransition(new OrderTransition(1, "A", "m", OrderStatus.PAID, null, NOW, List.of()));
        assertEquals(LocalTransactionState.ROLLBACK_MESSAGE,
                check.checkLocalTransaction(message("A", NOW.minusSeconds(90), NOW.plusSeconds(30), 4)));
        assertEquals(LocalTransactionState.UNKNOW,
                check.checkLocalTransaction(message("B", NOW.minusSeconds(90), NOW.plusSeconds(30), 4)));
        verify(probe, never()).probeIfDue(org.mockito.ArgumentMatchers.argThat(m -> m.orderNo().equals("A")), any());
    }

    @Test
    void remembersOnlyTheMostRecentDecisions() {
        for (String orderNo : new String[] { "A", "B", "C" }) {
            decided.onTransition(new OrderTransition(1, orderNo, "m", OrderStatus.CLOSED, null, NOW, List.of()));
        }
        // Two remembered: A is forgotten and checked as pending, which is safe (the consumer reads the database).
        assertFalse(decided.isDecided("A"));
        assertTrue(decided.isDecided("B"));
        assertTrue(decided.isDecided("C"));
    }

    @Test
    void aFailingProbeStillAnswersAndNeverRollsBack() {
        org.mockito.Mockito.doThrow(new IllegalStateException("no Vert.x")).when(probe).probeIfDue(any(), any());
        assertEquals(LocalTransactionState.UNKNOW,
                check.checkLocalTransaction(message("A", NOW.minusSeconds(90), NOW.plusSeconds(30), 4)));
        assertEquals(LocalTransactionState.COMMIT_MESSAGE,
                check.checkLocalTransaction(message("A", NOW.minusSeconds(90), NOW.plusSeconds(30), 14)));
    }

    @Test
    void eachCheckBackIsATraceLinkedToTheSendersAndTheFirstAndDecidingOnesGoToTheTimeline() {
        RecordedSpans recorded = new RecordedSpans(0.0);
        check = new ExpiryCheck(decided, probe, orders, config, recorded.spans(), events, new SimpleMeterRegistry(),
                Clock.fixed(NOW, ZoneOffset.UTC));
        // Sent inside a kept trace (a kept parent, although the ratio keeps no new trace).
        Span placing = recorded.spans().startLinked("POST /api/orders", SpanKind.SERVER,
                TraceContexts.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
        MessageExt first;
        MessageExt waiting;
        MessageExt due;
        try (Scope scope = placing.makeCurrent()) {
            first = message("A", NOW.minusSeconds(90), NOW.plusSeconds(30), 1);
            waiting = message("A", NOW.minusSeconds(90), NOW.plusSeconds(30), 4);
            due = message("A", NOW.minusSeconds(300), NOW, 7);
        } finally {
            placing.end();
        }

        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(first));
        assertEquals(LocalTransactionState.UNKNOW, check.checkLocalTransaction(waiting));
        assertEquals(LocalTransactionState.COMMIT_MESSAGE, check.checkLocalTransaction(due));

        List<SpanData> checks = recorded.named("order-expiry check");
        assertEquals(3, checks.size());
        for (SpanData span : checks) {
            assertFalse(span.getParentSpanContext().isValid(), "a trace of its own");
            assertEquals(placing.getSpanContext().getSpanId(), span.getLinks().get(0).getSpanContext().getSpanId());
            assertEquals(placing.getSpanContext().getTraceId(), span.getLinks().get(0).getSpanContext().getTraceId());
            assertEquals("A", span.getAttributes().get(Spans.ORDER_NO));
        }
        assertEquals(List.of("UNKNOW", "UNKNOW", "COMMIT_MESSAGE"), checks.stream()
                .map(span -> span.getAttributes().get(AttributeKey.stringKey("shop.expiry.answer"))).toList());
        assertEquals("pay deadline passed", checks.get(2).getAttributes().get(AttributeKey.stringKey("shop.expiry.reason")));
        verify(events).checkBack("A", "UNKNOW", 1, "pay deadline ahead");
        verify(events).checkBack("A", "COMMIT_MESSAGE", 7, "pay deadline passed");
        verifyNoMoreInteractions(events);
    }

    static MessageExt message(String orderNo, Instant created, Instant deadline, int checkTimes) {
        Message plain = new ExpiryMessage(orderNo, created, deadline).toMessage("order-expiry");
        MessageExt message = new MessageExt();
        message.setTopic(plain.getTopic());
        message.setBody(plain.getBody());
        plain.getProperties().forEach((key, value) -> MessageAccessor.putProperty(message, key, value));
        MessageAccessor.putProperty(message, MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES, Integer.toString(checkTimes));
        return message;
    }
}
