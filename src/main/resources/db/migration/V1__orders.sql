-- Catalog and stock. available = stock - lock_stock; both only change through conditional updates.
CREATE TABLE sku (
    id          BIGINT        NOT NULL PRIMARY KEY,
    code        VARCHAR(64)   NOT NULL,
    name        VARCHAR(200)  NOT NULL,
    price       DECIMAL(12,2) NOT NULL,
    stock       INT           NOT NULL,
    lock_stock  INT           NOT NULL DEFAULT 0,
    CONSTRAINT uk_sku_code UNIQUE (code),
    CONSTRAINT ck_sku_stock CHECK (stock >= 0 AND lock_stock >= 0 AND lock_stock <= stock)
) ENGINE = InnoDB;

CREATE TABLE orders (
    id               BIGINT        NOT NULL PRIMARY KEY,
    order_no         VARCHAR(32)   NOT NULL,
    member_id        VARCHAR(64)   NOT NULL,
    status           VARCHAR(20)   NOT NULL,
    close_reason     VARCHAR(20),
    total_amount     DECIMAL(12,2) NOT NULL,
    pay_deadline     DATETIME(6)   NOT NULL,
    created_at       DATETIME(6)   NOT NULL,
    paid_at          DATETIME(6),
    closed_at        DATETIME(6),
    idempotency_key  VARCHAR(100),
    request_hash     VARCHAR(64),
    CONSTRAINT uk_orders_order_no UNIQUE (order_no),
    CONSTRAINT uk_orders_member_idempotency UNIQUE (member_id, idempotency_key)
) ENGINE = InnoDB;
CREATE INDEX ix_orders_member ON orders (member_id, status, id);
CREATE INDEX ix_orders_status_deadline ON orders (status, pay_deadline);
CREATE SEQUENCE orders_SEQ START WITH 1 INCREMENT BY 50;

CREATE TABLE order_item (
    id          BIGINT        NOT NULL PRIMARY KEY,
    order_id    BIGINT        NOT NULL,
    sku_id      BIGINT        NOT NULL,
    sku_name    VARCHAR(200)  NOT NULL,
    unit_price  DECIMAL(12,2) NOT NULL,
    quantity    INT           NOT NULL,
    CONSTRAINT fk_order_item_order FOREIGN KEY (order_id) REFERENCES orders (id),
    CONSTRAINT fk_order_item_sku FOREIGN KEY (sku_id) REFERENCES sku (id)
) ENGINE = InnoDB;
CREATE INDEX ix_order_item_order ON order_item (order_id);
CREATE SEQUENCE order_item_SEQ START WITH 1 INCREMENT BY 50;

-- One payment per order: the Alipay QR code it was offered, and what happened to the money.
CREATE TABLE payment (
    id             BIGINT        NOT NULL PRIMARY KEY,
    order_id       BIGINT        NOT NULL,
    order_no       VARCHAR(32)   NOT NULL,
    amount         DECIMAL(12,2) NOT NULL,
    qr_code        VARCHAR(512)  NOT NULL,
    qr_png         MEDIUMBLOB    NOT NULL,
    status         VARCHAR(20)   NOT NULL,
    trade_no       VARCHAR(64),
    paid_amount    DECIMAL(12,2),
    paid_at        DATETIME(6),
    refund_amount  DECIMAL(12,2),
    refunded_at    DATETIME(6),
    created_at     DATETIME(6)   NOT NULL,
    CONSTRAINT uk_payment_order UNIQUE (order_id),
    CONSTRAINT fk_payment_order FOREIGN KEY (order_id) REFERENCES orders (id)
) ENGINE = InnoDB;
CREATE SEQUENCE payment_SEQ START WITH 1 INCREMENT BY 50;

-- Transactional outbox: events written in the same transaction as the state change, relayed to RocketMQ.
CREATE TABLE outbox_event (
    id            BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    topic         VARCHAR(100)  NOT NULL,
    message_key   VARCHAR(100)  NOT NULL,
    payload       TEXT          NOT NULL,
    created_at    DATETIME(6)   NOT NULL,
    published_at  DATETIME(6),
    attempts      INT           NOT NULL DEFAULT 0
) ENGINE = InnoDB;
CREATE INDEX ix_outbox_pending ON outbox_event (published_at, id);
