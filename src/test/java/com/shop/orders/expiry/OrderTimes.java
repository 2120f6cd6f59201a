package com.shop.orders.expiry;

import java.time.Duration;
import java.time.LocalDateTime;

import com.shop.orders.testsupport.TestDb;

/** When an order was placed, had to be paid by, and was closed or paid, as stored (UTC). */
record OrderTimes(LocalDateTime createdAt, LocalDateTime deadline, LocalDateTime closedAt, LocalDateTime paidAt) {

    static OrderTimes of(int orderId) {
        return TestDb.query("SELECT created_at, pay_deadline, closed_at, paid_at FROM orders WHERE id = ?",
                rs -> new OrderTimes(rs.getObject(1, LocalDateTime.class), rs.getObject(2, LocalDateTime.class),
                        rs.getObject(3, LocalDateTime.class), rs.getObject(4, LocalDateTime.class)),
                orderId).get(0);
    }

    /** How long after its deadline the order was closed (negative: before). */
    Duration closedAfterDeadline() {
        return Duration.between(deadline, closedAt);
    }
}
