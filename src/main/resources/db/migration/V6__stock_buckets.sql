-- Stock buckets (package inventory): a flash-sale SKU's stock spread over several rows, so that concurrent orders
-- lock different rows instead of queueing on one.
--
-- buckets = 1 (every SKU after this migration, and the default): the stock stays on the sku row, exactly as before.
-- buckets > 1: the stock lives in sku_bucket rows 0 .. buckets - 1 and the sku row holds none (the check below).
-- That check is also what keeps a replica of the previous release, still running during a rolling update, from
-- corrupting a bucketed SKU: every stock statement it knows reads or writes the sku row's stock, so on a bucketed
-- SKU its reservation finds nothing available, its release and deduction match no row (their transaction fails and
-- is retried later, by a new replica), and a restock or stock change violates the check.
--
-- version: changes with the price, the purchase limit and the layout; every bucket row carries the version it was
-- last written for, and a bucket reservation succeeds only at the version its order was computed with. So placement
-- never locks the sku row of a bucketed SKU, and an admin change (which locks the sku row and every bucket row)
-- cannot race an order.
-- layout: changes each time the buckets are laid out anew. Laying them out moves every unit pending orders hold into
-- bucket 0, so an order item placed under an older layout (or before the SKU had buckets) holds its units in bucket 0.
ALTER TABLE sku
    ADD COLUMN buckets INT NOT NULL DEFAULT 1,
    ADD COLUMN version INT NOT NULL DEFAULT 0,
    ADD COLUMN layout  INT NOT NULL DEFAULT 0,
    ADD CONSTRAINT ck_sku_buckets CHECK (buckets BETWEEN 1 AND 64 AND (buckets = 1 OR (stock = 0 AND lock_stock = 0)));

CREATE TABLE sku_bucket (
    sku_id       BIGINT NOT NULL,
    bucket_no    INT    NOT NULL,
    stock        INT    NOT NULL,
    lock_stock   INT    NOT NULL DEFAULT 0,
    sku_version  INT    NOT NULL,
    layout       INT    NOT NULL,
    PRIMARY KEY (sku_id, bucket_no),
    CONSTRAINT fk_sku_bucket_sku FOREIGN KEY (sku_id) REFERENCES sku (id),
    CONSTRAINT ck_sku_bucket_stock CHECK (stock >= 0 AND lock_stock >= 0 AND lock_stock <= stock)
) ENGINE = InnoDB;

-- Which buckets an item's units were reserved from ("bucket:units", comma-separated, ascending), under which layout.
-- NULL for an item of a SKU without buckets.
ALTER TABLE order_item
    ADD COLUMN stock_buckets VARCHAR(400) NULL,
    ADD COLUMN stock_layout  INT          NULL;
