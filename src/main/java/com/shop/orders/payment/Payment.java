package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntity;

/** The payment of one order: the QR code it was offered and what became of the money. */
@Entity
@Table(name = "payment")
public class Payment extends PanacheEntity {

    @Column(name = "order_id")
    public Long orderId;

    @Column(name = "order_no")
    public String orderNo;

    @Column(precision = 12, scale = 2)
    public BigDecimal amount;

    @Column(name = "qr_code")
    public String qrCode;

    @Column(name = "qr_png", columnDefinition = "mediumblob")
    public byte[] qrPng;

    @Enumerated(EnumType.STRING)
    public PaymentStatus status;

    @Column(name = "trade_no")
    public String tradeNo;

    @Column(name = "paid_amount", precision = 12, scale = 2)
    public BigDecimal paidAmount;

    @Column(name = "paid_at")
    public Instant paidAt;

    @Column(name = "refund_amount", precision = 12, scale = 2)
    public BigDecimal refundAmount;

    @Column(name = "refunded_at")
    public Instant refundedAt;

    @Column(name = "created_at")
    public Instant createdAt;
}
