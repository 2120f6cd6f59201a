-- Refunds (package refund): any number per paid order, together never more than was paid.

-- A payment that arrived for an order closed before its precreate answer came back has no QR code to keep.
ALTER TABLE payment MODIFY qr_code VARCHAR(512) NULL, MODIFY qr_png MEDIUMBLOB NULL;

-- A fully refunded order is REFUNDED from then on (a partial refund leaves it PAID).
ALTER TABLE orders ADD COLUMN refunded_at DATETIME(6) NULL;

-- One row per refund. out_request_no is Alipay's key of the refund, written before the first call, so that every
-- retry of the call (and the refund query) names the same refund: Alipay moves the money once per number. NULL
-- only for a refund Alipay made by itself (a cancel of a trade that was paid meanwhile). status: PENDING (sent, or
-- about to be, outcome not known), SUCCEEDED, FAILED (Alipay refused it for good; its amount is free again).
-- idempotency_key is the admin's Idempotency-Key, or a key of the service's own (with a space, which a header key
-- cannot hold) for the refunds it makes by itself. A PENDING refund is settled by the refund settler from
-- next_attempt_at on.
CREATE TABLE refund (
    id               BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_id         BIGINT        NOT NULL,
    order_no         VARCHAR(32)   NOT NULL,
    out_request_no   VARCHAR(64),
    cause            VARCHAR(20)   NOT NULL,
    amount           DECIMAL(12,2) NOT NULL,
    reason           VARCHAR(256),
    status           VARCHAR(10)   NOT NULL,
    idempotency_key  VARCHAR(100)  NOT NULL,
    request_hash     CHAR(64)      NOT NULL,
    requested_at     DATETIME(6)   NOT NULL,
    completed_at     DATETIME(6),
    failure_code     VARCHAR(64),
    failure_reason   VARCHAR(256),
    attempts         INT           NOT NULL DEFAULT 0,
    next_attempt_at  DATETIME(6),
    last_error       VARCHAR(500),
    CONSTRAINT uk_refund_request_no UNIQUE (out_request_no),
    CONSTRAINT uk_refund_idempotency UNIQUE (order_id, idempotency_key),
    CONSTRAINT ck_refund_amount CHECK (amount > 0),
    CONSTRAINT fk_refund_order FOREIGN KEY (order_id) REFERENCES orders (id)
) ENGINE = InnoDB;
CREATE INDEX ix_refund_due ON refund (status, next_attempt_at);
CREATE INDEX ix_refund_completed ON refund (completed_at);

-- Units a refund returns to stock (and takes off the member's purchase limits), once it succeeded.
CREATE TABLE refund_restock (
    id         BIGINT  NOT NULL AUTO_INCREMENT PRIMARY KEY,
    refund_id  BIGINT  NOT NULL,
    sku_id     BIGINT  NOT NULL,
    quantity   INT     NOT NULL,
    CONSTRAINT uk_refund_restock UNIQUE (refund_id, sku_id),
    CONSTRAINT ck_refund_restock_quantity CHECK (quantity > 0),
    CONSTRAINT fk_refund_restock_refund FOREIGN KEY (refund_id) REFERENCES refund (id)
) ENGINE = InnoDB;

-- Refunds made before this table existed: the payment that arrived after its order had closed (request number
-- "<orderNo>-refund"), or a cancel's refund (no request number; its trade number was not recorded).
INSERT INTO refund (order_id, order_no, out_request_no, cause, amount, status, idempotency_key, request_hash,
        requested_at, completed_at)
SELECT p.order_id, p.order_no, CASE WHEN p.trade_no IS NULL THEN NULL ELSE CONCAT(p.order_no, '-refund') END,
        CASE WHEN p.trade_no IS NULL THEN 'CANCELLED_TRADE' ELSE 'LATE_PAYMENT' END, p.refund_amount, 'SUCCEEDED',
        CASE WHEN p.trade_no IS NULL THEN 'service trade-cancel' ELSE 'service late-payment' END, '', p.refunded_at,
        p.refunded_at
FROM payment p WHERE p.status = 'REFUNDED' AND p.refund_amount > 0;
