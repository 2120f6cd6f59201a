-- Aggregated payment (package payment, README "Payment channels"): an order has one trade per channel its buyer
-- asked for (Alipay, WeChat Pay), each with its own out_trade_no, written before the channel is called.

-- channel: the channel's name in the API. out_trade_no: the trade's number at its wallet (Alipay's is the order
-- number, as before channels existed). accepted: this trade's money paid the order (at most one per order); any
-- other trade that took money is refunded in full. status CLOSED: closed at the wallet, unpaid.
ALTER TABLE payment ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'alipay' AFTER order_no,
    ADD COLUMN out_trade_no VARCHAR(32) NULL AFTER channel,
    ADD COLUMN accepted BOOLEAN NOT NULL DEFAULT FALSE AFTER status;
UPDATE payment SET out_trade_no = order_no;
UPDATE payment p JOIN orders o ON o.id = p.order_id SET p.accepted = TRUE WHERE o.paid_at IS NOT NULL;
ALTER TABLE payment MODIFY out_trade_no VARCHAR(32) NOT NULL, ALTER COLUMN channel DROP DEFAULT;
-- The new key first: the order's foreign key needs an index on order_id at every moment.
ALTER TABLE payment ADD CONSTRAINT uk_payment_order_channel UNIQUE (order_id, channel),
    ADD CONSTRAINT uk_payment_out_trade_no UNIQUE (out_trade_no);
ALTER TABLE payment DROP INDEX uk_payment_order;
CREATE INDEX ix_payment_order_no ON payment (order_no);

-- The trade a refund gives money back from.
ALTER TABLE refund ADD COLUMN out_trade_no VARCHAR(32) NULL AFTER order_no;
UPDATE refund SET out_trade_no = order_no;
ALTER TABLE refund MODIFY out_trade_no VARCHAR(32) NOT NULL;
CREATE INDEX ix_refund_trade ON refund (out_trade_no);
