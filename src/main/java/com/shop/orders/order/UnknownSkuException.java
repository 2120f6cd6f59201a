package com.shop.orders.order;

import java.util.Collection;
import java.util.Map;

import com.shop.orders.web.ProblemException;

/** The URL is fine but the body names SKUs that do not exist: 422. */
public class UnknownSkuException extends ProblemException {

    public UnknownSkuException(Collection<Long> skuIds) {
        super(422, "Unknown SKU", "These SKUs do not exist: " + skuIds, Map.of("skuIds", skuIds));
    }
}
