package com.shop.orders.testsupport;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.order.OrderTransition;

import io.quarkus.redis.datasource.RedisDataSource;

/** What another instance of the service does to the shared database and Redis, done by the test instead. */
public final class AnotherInstance {

    /** The channel OrderTransitions announces on. */
    private static final String TRANSITIONS_CHANNEL = "shop:order-transitions";

    private AnotherInstance() {
    }

    /**
     * Closes the pending order as another instance's close would, without announcing it: the status, the member's
     * purchase allowances, the reserved stock. Answers the SKUs it released (none if the order was not pending).
     */
    public static List<Long> closes(long orderId, String reason) {
        if (TestDb.update("UPDATE orders SET status = 'CLOSED', close_reason = ?, closed_at = UTC_TIMESTAMP(6) "
                + "WHERE id = ? AND status = 'PENDING_PAYMENT'", reason, orderId) != 1) {
            return List.of();
        }
        String member = TestDb.scalar("SELECT member_id FROM orders WHERE id = ?", orderId);
        TestDb.update("UPDATE purchase_allowance SET used = used - 1 WHERE member_id = ? AND sku_id = 0", member);
        TestDb.update("UPDATE purchase_allowance a JOIN order_item i ON i.order_id = ? AND i.sku_id = a.sku_id "
                + "SET a.used = a.used - i.quantity WHERE a.member_id = ?", orderId, member);
        TestDb.update("UPDATE sku s JOIN order_item i ON i.order_id = ? AND i.sku_id = s.id "
                + "SET s.lock_stock = s.lock_stock - i.quantity", orderId);
        return TestDb.query("SELECT sku_id FROM order_item WHERE order_id = ?", rs -> rs.getLong(1), orderId);
    }

    /** What OrderTransitions of another instance publishes: its instance id, a space, the transition. */
    public static void announces(RedisDataSource redis, ObjectMapper json, OrderTransition transition)
            throws JsonProcessingException {
        redis.pubsub(String.class).publish(TRANSITIONS_CHANNEL,
                UUID.randomUUID() + " " + json.writeValueAsString(transition));
    }
}
