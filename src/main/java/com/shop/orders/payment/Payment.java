package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntity;

/**
 * One trade of an order on one channel: the QR code it was offered and what became of the money. An order has one
 * per channel its buyer asked for; the one whose money paid the order is {@link #accepted}.
 */
@Entity
@Table(name = "payment")
public class Payment extends PanacheEntity {

    @Column(name = "order_id")
    public Long orderId;

    @Column(name = "order_no")
    public String orderNo;

    /** The channel's name in the API, e.g. "alipay". */
    public String channel;

    /** The trade's number at its wallet. */
    @Column(name = "out_trade_no")
    public String outTradeNo;

    @Column(precision = 12, scale = 2)
    public BigDecimal amount;

    @Column(name = "qr_code")
    public String qrCode;

    @Column(name = "qr_png", columnDefinition = "mediumblob")
    public byte[] qrPng;

    @Enumerated(EnumType.STRING)
    public PaymentStatus status;

    /** This trade's money paid the order. */
    public boolean accepted;

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

    /** What the wallet took: the amount it reported, or the trade's when none was recorded. */
    public BigDecimal paidAmount() {
        return paidAmount != null ? paidAmount : amount;
    }
}
