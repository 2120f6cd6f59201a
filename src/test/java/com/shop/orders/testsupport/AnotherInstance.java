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
        releases(orderId);
        return TestDb.query("SELECT sku_id FROM order_item WHERE order_id = ?", rs -> rs.getLong(1), orderId);
    }

    /**
     * Gives the order's reserved units back where they are held: the row of a SKU without buckets; the buckets the
     * item names while its SKU is laid out as when it was placed; else bucket 0, where laying out moved the hold.
     */
    private static void releases(long orderId) {
        record Held(long skuId, int quantity, String buckets, boolean sameLayout, int skuBuckets) {
        }
        List<Held> items = TestDb.query("SELECT i.sku_id, i.quantity, i.stock_buckets, i.stock_layout <=> s.layout, "
                + "s.buckets FROM order_item i JOIN sku s ON s.id = i.sku_id WHERE i.order_id = ? ORDER BY i.sku_id",
                rs -> new Held(rs.getLong(1), rs.getInt(2), rs.getString(3), rs.getBoolean(4), rs.getInt(5)), orderId);
        for (Held item : items) {
            if (item.skuBuckets() == 1) {
                TestDb.update("UPDATE sku SET lock_stock = lock_stock - ? WHERE id = ?", item.quantity(), item.skuId());
            } else if (item.sameLayout() && item.buckets() != null) {
                for (int[] share : TestDb.parseShares(item.buckets())) {
                    TestDb.update("UPDATE sku_bucket SET lock_stock = lock_stock - ? WHERE sku_id = ? AND bucket_no = ?",
                            share[1], item.skuId(), share[0]);
                }
            } else {
                TestDb.update("UPDATE sku_bucket SET lock_stock = lock_stock - ? WHERE sku_id = ? AND bucket_no = 0",
                        item.quantity(), item.skuId());
            }
        }
    }

    /** What OrderTransitions of another instance publishes: its instance id, a space, the transition. */
    public static void announces(RedisDataSource redis, ObjectMapper json, OrderTransition transition)
            throws JsonProcessingException {
        redis.pubsub(String.class).publish(TRANSITIONS_CHANNEL,
                UUID.randomUUID() + " " + json.writeValueAsString(transition));
    }
}
