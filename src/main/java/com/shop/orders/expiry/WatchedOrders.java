package com.shop.orders.expiry;

import java.time.LocalDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.order.OrderStatus;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The check-back's read of an order: one prepared statement on the reactive pool, without a
 * Hibernate session, because it runs for every pending order at every check interval.
 * Timestamps are stored in UTC (quarkus.hibernate-orm.jdbc.timezone).
 */
@ApplicationScoped
public class WatchedOrders {

    private final Pool pool;

    public WatchedOrders(Pool pool) {
        this.pool = pool;
    }

    Uni<WatchedOrder> find(String orderNo) {
        return pool.preparedQuery("SELECT id, status, pay_deadline, created_at FROM orders WHERE order_no = ?")
                .execute(Tuple.of(orderNo))
                .map(rows -> rows.size() == 0 ? null : toOrder(rows.iterator().next()));
    }

    private static WatchedOrder toOrder(Row row) {
        return new WatchedOrder(row.getLong("id"), OrderStatus.valueOf(row.getString("status")),
                utc(row.getLocalDateTime("pay_deadline")), utc(row.getLocalDateTime("created_at")));
    }

    private static java.time.Instant utc(LocalDateTime value) {
        return value.toInstant(ZoneOffset.UTC);
    }
}
