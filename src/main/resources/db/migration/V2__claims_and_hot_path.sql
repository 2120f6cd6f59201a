-- Placement writes orders and items with plain SQL: ids come from AUTO_INCREMENT (one round trip less
-- than a sequence), and the stock update is the last statement before COMMIT, so a hot SKU's row lock
-- is held for the shortest time. The item's foreign key to sku is dropped because it took a shared lock
-- on the SKU row at the item insert, which forced the stock update to come first. Item SKUs stay valid
-- without it: an item is written only in the transaction whose conditional stock update on that SKU
-- succeeded, and SKUs are never deleted.
ALTER TABLE order_item DROP FOREIGN KEY fk_order_item_sku;
ALTER TABLE order_item DROP FOREIGN KEY fk_order_item_order;
ALTER TABLE payment DROP FOREIGN KEY fk_payment_order;
ALTER TABLE orders MODIFY id BIGINT NOT NULL AUTO_INCREMENT;
ALTER TABLE order_item MODIFY id BIGINT NOT NULL AUTO_INCREMENT;
ALTER TABLE order_item ADD CONSTRAINT fk_order_item_order FOREIGN KEY (order_id) REFERENCES orders (id);
ALTER TABLE payment ADD CONSTRAINT fk_payment_order FOREIGN KEY (order_id) REFERENCES orders (id);
DROP SEQUENCE orders_SEQ;
DROP SEQUENCE order_item_SEQ;

-- One word for the deadline passing unpaid: the order expired.
UPDATE orders SET close_reason = 'EXPIRED' WHERE close_reason = 'TIMEOUT';

-- expiry_message_at: when the order's expiry message was confirmed sent (NULL: not yet, or its send
-- failed); the sweep sends it again for orders left without one.
-- sweep_after / sweep_attempts: the sweep's claim on an order. Replicas claim disjoint batches, and an
-- order that could not be closed is retried after a growing pause instead of blocking the others.
ALTER TABLE orders
    ADD COLUMN expiry_message_at DATETIME(6) NULL,
    ADD COLUMN sweep_after       DATETIME(6) NULL,
    ADD COLUMN sweep_attempts    INT         NOT NULL DEFAULT 0;

-- Outbox rows are claimed the same way: next_attempt_at is a lease while a relay publishes the row and
-- the backoff after a failed attempt.
ALTER TABLE outbox_event
    ADD COLUMN next_attempt_at DATETIME(6) NULL,
    ADD COLUMN last_error      VARCHAR(500) NULL;
