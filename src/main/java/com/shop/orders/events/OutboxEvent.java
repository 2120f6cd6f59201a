package com.shop.orders.events;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** An event written in the same transaction as the change it reports, relayed to RocketMQ afterwards. */
@Entity
@Table(name = "outbox_event")
public class OutboxEvent extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String topic;

    @Column(name = "message_key")
    public String messageKey;

    public String payload;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "published_at")
    public Instant publishedAt;

    public int attempts;

    /** The trace that wrote the event (W3C traceparent), when it was kept: what its publication links to. */
    @Column(name = "trace_parent")
    public String traceParent;
}
