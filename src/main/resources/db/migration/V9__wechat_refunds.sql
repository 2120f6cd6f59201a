-- WeChat Pay refunds (package refund). status gains ABNORMAL: the wallet took the refund but could not pay it back
-- to the buyer's account; a person finishes it in the merchant console (SUCCEEDED or FAILED then). Not final: it
-- keeps its amount, and the settler asks after it from next_attempt_at on, without sending it again.

-- When the refund goes (or went) to the wallet the first time: when it was requested, or later when the wallet wants
-- refunds of one trade apart (WeChat: a minute) and the trade's previous one was sent less than that before.
ALTER TABLE refund ADD COLUMN send_at DATETIME(6) NULL AFTER requested_at;
UPDATE refund SET send_at = requested_at;
ALTER TABLE refund MODIFY send_at DATETIME(6) NOT NULL;
