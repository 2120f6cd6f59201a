package com.shop.orders.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
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

import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.order.OrderTransition;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The check-back answers from the message and from memory, with a fixed clock; no broker, no database. */
class ExpiryCheckTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private final PaymentProbe probe = mock(PaymentProbe.class);
    private final OrderRepository orders = mock(OrderRepository.class);
    private final ExpiryConfig config = mock(ExpiryConfig.class);
    private DecidedOrders decided;
    private ExpiryCheck check;

    @BeforeEach
    void setUp() {
        when(config.brokerCheckMax()).thenReturn(15);
        when(config.decidedOrdersRemembered()).thenReturn(2);
        when(config.checkTimeout()).thenReturn(Duration.ofSeconds(1));
        decided = new DecidedOrders(config);
        check = new ExpiryCheck(decided, probe, orders, config, new SimpleMeterRegistry(),
                Clock.fixed(NOW, ZoneOffset.UTC));
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
