package com.shop.orders.inventory;

import java.util.Map;

import com.shop.orders.web.ProblemException;

public class SkuNotFoundException extends ProblemException {

    public SkuNotFoundException(long skuId) {
        super(404, "SKU not found", "SKU " + skuId + " does not exist", Map.of("skuId", skuId));
    }
}
