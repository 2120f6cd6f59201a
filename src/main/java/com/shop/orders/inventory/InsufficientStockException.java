package com.shop.orders.inventory;

import java.util.Map;

import com.shop.orders.web.ProblemException;

/** A flash sale's losers get this by the thousand a second: it carries no stack trace, which none of them needs. */
public class InsufficientStockException extends ProblemException {

    public InsufficientStockException(long skuId) {
        super(409, "Insufficient stock", "SKU " + skuId + " does not have enough stock for this order",
                Map.of("skuId", skuId));
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
