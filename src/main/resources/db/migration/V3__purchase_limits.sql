-- Purchase limits per member (flash sales). sku.per_member_limit: at most this many units of the SKU in one
-- member's PENDING_PAYMENT and PAID orders (NULL: no limit).
ALTER TABLE sku
    ADD COLUMN per_member_limit INT NULL,
    ADD CONSTRAINT ck_sku_per_member_limit CHECK (per_member_limit IS NULL OR per_member_limit > 0);

-- What each member has used of each limit, kept exact by the transactions that move orders:
--   sku_id = a SKU: the units of that SKU in the member's PENDING_PAYMENT and PAID orders;
--   sku_id = 0:     the member's PENDING_PAYMENT orders.
-- cap is the limit the latest placement applied (NULL: none). Placement adds to its rows in one statement, and
-- ck_allowance_cap refuses that statement when a row would go over its cap: the limit holds for any burst on any
-- number of replicas, because the rows are locked from that statement to COMMIT. Lock order everywhere: the
-- order's row, these rows (ascending sku_id), then the SKU rows.
CREATE TABLE purchase_allowance (
    member_id VARCHAR(64) NOT NULL,
    sku_id    BIGINT      NOT NULL,
    used      INT         NOT NULL,
    cap       INT         NULL,
    PRIMARY KEY (member_id, sku_id),
    CONSTRAINT ck_allowance_used CHECK (used >= 0),
    CONSTRAINT ck_allowance_cap CHECK (cap IS NULL OR used <= cap)
) ENGINE = InnoDB;

INSERT INTO purchase_allowance (member_id, sku_id, used)
SELECT member_id, 0, COUNT(*) FROM orders WHERE status = 'PENDING_PAYMENT' GROUP BY member_id;

INSERT INTO purchase_allowance (member_id, sku_id, used)
SELECT o.member_id, i.sku_id, SUM(i.quantity)
FROM orders o JOIN order_item i ON i.order_id = o.id
WHERE o.status IN ('PENDING_PAYMENT', 'PAID')
GROUP BY o.member_id, i.sku_id;
