package com.shop.orders.reconciliation;

/** The bill cannot be trusted as a whole (not a zip, not GBK, truncated, not Alipay's layout): the run fails. */
public class UnusableBillException extends RuntimeException {

    public UnusableBillException(String reason) {
        super(reason, null, false, false);
    }
}
