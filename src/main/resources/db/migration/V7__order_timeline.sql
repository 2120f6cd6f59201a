-- Traces and the order timeline (packages tracing and order, README "Traces" and "Order timeline").

-- The trace context (W3C traceparent) of the request that placed the order, written by the placement's own INSERT,
-- and of the change that wrote an outbox event: what the check-backs, the close and the published event link to.
-- NULL when that trace was not kept.
ALTER TABLE orders ADD COLUMN trace_parent VARCHAR(55) NULL;
ALTER TABLE outbox_event ADD COLUMN trace_parent VARCHAR(55) NULL;

-- What happened to an order beyond its own row, append-only. The transitions (paid, closed, a QR code offered, a
-- refund recorded and settled) are written in the transaction that makes them; what has no transaction of its own
-- (Alipay calls and notifies, the first and the deciding check-backs, expiry messages) is written in batches, best
-- effort. A few rows per order: check-backs are written when they are the first or decide something, Alipay queries
-- are bounded by the query budget. trace_id: the trace the entry was made in, when it was kept.
CREATE TABLE order_event (
    id        BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_no  VARCHAR(32)  NOT NULL,
    at        DATETIME(6)  NOT NULL,
    kind      VARCHAR(20)  NOT NULL,
    outcome   VARCHAR(64)  NULL,
    detail    VARCHAR(255) NULL,
    trace_id  CHAR(32)     NULL
) ENGINE = InnoDB;
CREATE INDEX ix_order_event_order ON order_event (order_no, id);
