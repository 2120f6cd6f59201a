package com.shop.orders.sandbox.alipay;

/** The simulated buyer cannot scan or pay this trade (answered 409 with the reason). */
public final class BuyerActionRefused extends RuntimeException {

    public BuyerActionRefused(String reason) {
        super(reason, null, false, false);
    }
}
