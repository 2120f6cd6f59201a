package com.shop.orders;

import static com.shop.orders.testsupport.Management.management;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.shop.orders.events.EventsConfig;
import com.shop.orders.rocketmq.RocketMqConfig;
import com.shop.orders.testsupport.LocalRocketMq;
import com.shop.orders.testsupport.PaidEvents;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The broker goes away for longer than a pay window: the service stays ready, keeps taking orders and
 * payments, closes the unpaid order by the sweep, and publishes the "order paid" event once the broker is
 * back. Sweep grace 8 s in tests.
 */
@QuarkusTest
class BrokerOutageTest {

    private static final Duration SWEEP_GRACE = Duration.ofSeconds(8);

    @Inject
    RocketMqConfig rocketMq;

    @Inject
    EventsConfig events;

    @Test
    void ordersArePlacedPaidAndClosedWhileTheBrokerIsDown() throws Exception {
        long sku = TestDb.newSku(10, "2.00");
        String member = newMemberToken();
        LocalRocketMq broker = LocalRocketMq.current();
        int paid;
        int unpaid;
        try (PaidEvents received = PaidEvents.listen(rocketMq.nameServer(), events.paidTopic())) {
            broker.stopBroker();
            try {
                // Both orders placed once the broker is gone: the pay window (6 s in tests) starts after the stop.
                paid = placeOrder(member, sku, 1);
                String qr = requestQr(member, paid);
                unpaid = placeOrder(member, sku, 3);
                pay(qr);
                TestDb.awaitOrderStatus(paid, "PAID", Duration.ofSeconds(10));
                management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
                // The event waits in the outbox, with an attempt that failed.
                await().atMost(Duration.ofSeconds(15)).until(() -> TestDb.count("SELECT COUNT(*) FROM outbox_event "
                        + "WHERE message_key = ? AND published_at IS NULL AND last_error IS NOT NULL", orderNo(paid)) == 1);
                LocalDateTime deadline = TestDb.<LocalDateTime> query("SELECT pay_deadline FROM orders WHERE id = ?",
                        rs -> rs.getObject(1, LocalDateTime.class), unpaid).get(0);
                // Keep the broker away until the deadline has passed: only the sweep can close the order.
                await().atMost(Duration.ofSeconds(20)).until(() -> LocalDateTime.now(ZoneOffset.UTC).isAfter(deadline));
            } finally {
                broker.startBroker();
            }
            TestDb.awaitOrderStatus(unpaid, "CLOSED", Duration.ofSeconds(45));
            Duration late = TestDb.<Duration> query("SELECT pay_deadline, closed_at FROM orders WHERE id = ?",
                    rs -> Duration.between(rs.getObject(1, LocalDateTime.class), rs.getObject(2, LocalDateTime.class)),
                    unpaid).get(0);
            assertTrue(late.compareTo(SWEEP_GRACE) >= 0, "no expiry message, yet closed early: " + late);
            assertTrue(late.compareTo(SWEEP_GRACE.plusSeconds(5)) < 0, "swept late: " + late);
            assertNull(TestDb.scalar("SELECT expiry_message_at FROM orders WHERE id = ?", unpaid));

            await().atMost(Duration.ofSeconds(60)).until(() -> received.count(orderNo(paid) + " ") == 1);
        }
        assertEquals(new TestDb.SkuRow(9, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
    }
}
