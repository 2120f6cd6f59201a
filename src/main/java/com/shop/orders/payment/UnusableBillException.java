package com.shop.orders.payment;

/** The bill cannot be trusted as a whole (truncated, tampered with, not the wallet's encoding or layout): the run fails. */
public class UnusableBillException extends RuntimeException {

    public UnusableBillException(String reason) {
        super(reason, null, false, false);
    }
}
