package com.shop.orders.refund;

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

/** One refund of an order's trade, recorded with its request number before the trade's wallet is called. */
@Entity
@Table(name = "refund")
public class Refund extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "order_id")
    public Long orderId;

    @Column(name = "order_no")
    public String orderNo;

    /** The trade the money goes back from. */
    @Column(name = "out_trade_no")
    public String outTradeNo;

    @Column(name = "out_request_no")
    public String outRequestNo;

    @Enumerated(EnumType.STRING)
    public RefundCause cause;

    @Column(precision = 12, scale = 2)
    public BigDecimal amount;

    public String reason;

    @Enumerated(EnumType.STRING)
    public RefundStatus status;

    @Column(name = "idempotency_key")
    public String idempotencyKey;

    @Column(name = "request_hash")
    public String requestHash;

    @Column(name = "requested_at")
    public Instant requestedAt;

    /**
     * When it is sent to the wallet the first time: when it was requested, or later when the wallet's least interval
     * between two refunds of a trade had not passed.
     */
    @Column(name = "send_at")
    public Instant sendAt;

    @Column(name = "completed_at")
    public Instant completedAt;

    @Column(name = "failure_code")
    public String failureCode;

    @Column(name = "failure_reason")
    public String failureReason;

    public int attempts;

    @Column(name = "next_attempt_at")
    public Instant nextAttemptAt;

    @Column(name = "last_error")
    public String lastError;
}
