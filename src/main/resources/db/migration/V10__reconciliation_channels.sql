-- Reconciliation per channel (package reconciliation): each channel's daily trade bill is reconciled on its own, a
-- run per (bill_date, channel), its differences named by channel. What was reconciled before was Alipay's bill.
ALTER TABLE reconciliation_run ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'alipay' AFTER bill_date;
ALTER TABLE reconciliation_run ALTER COLUMN channel DROP DEFAULT;
ALTER TABLE reconciliation_run DROP PRIMARY KEY, ADD PRIMARY KEY (bill_date, channel);

ALTER TABLE reconciliation_difference ADD COLUMN channel VARCHAR(16) NOT NULL DEFAULT 'alipay' AFTER bill_date;
ALTER TABLE reconciliation_difference ALTER COLUMN channel DROP DEFAULT;
ALTER TABLE reconciliation_difference DROP INDEX uk_reconciliation_difference,
    ADD CONSTRAINT uk_reconciliation_difference UNIQUE (bill_date, channel, kind, out_trade_no, entry_key);
