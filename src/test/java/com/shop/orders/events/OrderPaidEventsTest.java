package com.shop.orders.events;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.rocketmq.RocketMqConfig;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.OnVertx;
import com.shop.orders.testsupport.PaidEvents;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

/** "Order paid" events reach RocketMQ once per payment, keyed by order number (broker outages: BrokerOutageTest). */
@QuarkusTest
class OrderPaidEventsTest {

    @Inject
    RocketMqConfig rocketMq;

    @Inject
    EventsConfig events;

    @Inject
    OutboxRelay relay;

    private PaidEvents received;

    @BeforeEach
    void subscribe() throws Exception {
        received = PaidEvents.listen(rocketMq.nameServer(), events.paidTopic());
    }

    @AfterEach
    void unsubscribe() {
        received.close();
    }

    @Test
    void paidOrderIsPublishedOnceKeyedByOrderNumber() {
        long sku = TestDb.newSku(5, "6.00");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        String no = orderNo(orderId);
        pay(requestQr(member, orderId));

        await().atMost(Duration.ofSeconds(30)).until(() -> received.count(no + " ") == 1);
        String event = received.first(no);
        assertTrue(event.contains("\"orderId\":" + orderId), event);
        assertTrue(event.contains("\"amount\":6.00"), event);
        assertTrue(event.contains("\"source\":\"NOTIFY\""), event);
        assertEquals(1, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE message_key = ?", no));
    }

    @Test
    void relaysRunningAtOnceClaimDisjointEvents() throws Exception {
        String prefix = "relay-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        int count = 40;
        for (int i = 0; i < count; i++) {
            TestDb.update("INSERT INTO outbox_event (topic, message_key, payload, created_at) VALUES (?, ?, ?, NOW(6))",
                    events.paidTopic(), prefix + i, "{\"orderNo\":\"" + prefix + i + "\"}");
        }
        // Passes at once, as replicas run them (the scheduled pass runs too); each claims a few (batch 5 in tests).
        for (int round = 0; round < 3; round++) {
            Concurrently.run(4, () -> OnVertx.await(relay::relay));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> received.count(prefix) >= count);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> received.count(prefix) == count);
        assertEquals(count, TestDb.count("SELECT COUNT(*) FROM outbox_event WHERE message_key LIKE ? "
                + "AND published_at IS NOT NULL AND attempts = 1", prefix + "%"));
    }
}
