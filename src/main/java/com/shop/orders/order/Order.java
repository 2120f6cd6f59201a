package com.shop.orders.order;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A member's order, as read by everything but placement ({@link OrderPlacement} writes it with plain
 * SQL). Status moves only through {@link OrderRepository}'s conditional updates, never by changing a
 * loaded entity.
 */
@Entity
@Table(name = "orders")
public class Order extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "order_no")
    public String orderNo;

    @Column(name = "member_id")
    public String memberId;

    @Enumerated(EnumType.STRING)
    public OrderStatus status;

    @Enumerated(EnumType.STRING)
    @Column(name = "close_reason")
    public CloseReason closeReason;

    @Column(name = "total_amount", precision = 12, scale = 2)
    public BigDecimal totalAmount;

    /** Fixed when the order is placed; it never moves. */
    @Column(name = "pay_deadline")
    public Instant payDeadline;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "paid_at")
    public Instant paidAt;

    @Column(name = "closed_at")
    public Instant closedAt;

    @Column(name = "refunded_at")
    public Instant refundedAt;

    @Column(name = "idempotency_key")
    public String idempotencyKey;

    /** Identifies the request that placed the order, so that a reused idempotency key with another body is refused. */
    @Column(name = "request_hash")
    public String requestHash;

    /** The trace that placed the order (W3C traceparent), when it was kept: what its close links to. */
    @Column(name = "trace_parent")
    public String traceParent;

    public boolean isPending() {
        return status == OrderStatus.PENDING_PAYMENT;
    }

    public boolean isPastDeadline(Instant now) {
        return !now.isBefore(payDeadline);
    }
}
