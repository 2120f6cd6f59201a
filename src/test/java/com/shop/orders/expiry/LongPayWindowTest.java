package com.shop.orders.expiry;

import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A pay window longer than one half message can be watched (the test broker gives up after 15
 * checks, one a second): the watch is re-armed and the order still closes at its deadline,
 * neither before nor never. The sweep's grace is a minute here, so only the watch can close it.
 */
@QuarkusTest
@TestProfile(LongPayWindowTest.LongPayWindow.class)
class LongPayWindowTest {

    public static class LongPayWindow implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("shop.order.pay-timeout", "22s", "expiry.sweep.grace", "60s");
        }
    }

    @Inject
    RedisDataSource redis;

    @Test
    void orderIsClosedAtItsDeadlineAfterTheWatchIsReArmed() {
        long sku = TestDb.newSku(10, "2.00");
        int orderId = placeOrder(newMemberToken(), sku, 2);

        Pause.of(Duration.ofSeconds(18));
        assertEquals("PENDING_PAYMENT", TestDb.orderStatus(orderId));
        TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));

        OrderTimes times = OrderTimes.of(orderId);
        assertFalse(times.closedAfterDeadline().isNegative(), "closed before its deadline: " + times);
        assertTrue(times.closedAfterDeadline().compareTo(Duration.ofSeconds(5)) < 0, "closed late: " + times);
        long arms = Long.parseLong(redis.hash(String.class).hget("order:watch:" + orderNo(orderId), "arms"));
        assertTrue(arms >= 2, "watch not re-armed: " + arms);
        assertEquals(new TestDb.SkuRow(10, 0), TestDb.sku(sku));
    }
}
