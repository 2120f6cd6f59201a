package com.shop.orders.inventory;

import java.util.Map;

import com.shop.orders.common.ProblemException;

public class InsufficientStockException extends ProblemException {

    public InsufficientStockException(long skuId) {
        super(409, "Insufficient stock", "SKU " + skuId + " does not have enough stock for this order",
                Map.of("skuId", skuId));
    }
}
