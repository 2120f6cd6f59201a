-- Daily reconciliation against Alipay's trade bill (package reconciliation).

-- One row per bill date (China time, Alipay's day). status: DUE (waiting for its time), RUNNING (leased by one
-- replica until lease_until), FAILED (tried again at next_attempt_at), DONE. A replica claims a date with one
-- conditional UPDATE, so that replicas run each date once.
CREATE TABLE reconciliation_run (
    bill_date        DATE          NOT NULL PRIMARY KEY,
    status           VARCHAR(10)   NOT NULL,
    attempts         INT           NOT NULL DEFAULT 0,
    next_attempt_at  DATETIME(6)   NOT NULL,
    lease_until      DATETIME(6),
    started_at       DATETIME(6),
    finished_at      DATETIME(6),
    last_error       VARCHAR(500),
    bill_payments    INT,
    bill_refunds     INT,
    differences      INT
) ENGINE = InnoDB;
CREATE INDEX ix_reconciliation_run_due ON reconciliation_run (status, next_attempt_at);

-- What the bill and the service disagree on. One row per difference: entry_key names the bill row or the record
-- (kind, trade_no, refund request no), so that a rerun of the date adds nothing twice. settlement is NULL while the
-- difference waits for someone (flagged); CONFIRMED_PAID and REFUNDED when the reconciliation settled it through
-- the payment paths, RESOLVED when an admin did.
CREATE TABLE reconciliation_difference (
    id               BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    bill_date        DATE          NOT NULL,
    kind             VARCHAR(30)   NOT NULL,
    out_trade_no     VARCHAR(64)   NOT NULL,
    entry_key        VARCHAR(160)  NOT NULL,
    order_id         BIGINT,
    trade_no         VARCHAR(64),
    bill_amount      DECIMAL(12,2),
    recorded_amount  DECIMAL(12,2),
    detail           VARCHAR(500)  NOT NULL,
    found_at         DATETIME(6)   NOT NULL,
    settlement       VARCHAR(20),
    settled_at       DATETIME(6),
    note             VARCHAR(500),
    CONSTRAINT uk_reconciliation_difference UNIQUE (bill_date, kind, out_trade_no, entry_key)
) ENGINE = InnoDB;
CREATE INDEX ix_reconciliation_difference_open ON reconciliation_difference (settlement, bill_date);

-- The reconciliation reads a day's payments and refunds by their time.
CREATE INDEX ix_payment_paid_at ON payment (paid_at);
CREATE INDEX ix_payment_refunded_at ON payment (refunded_at);
