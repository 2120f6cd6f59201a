package com.shop.orders.inventory;

import java.math.BigDecimal;

/**
 * A SKU as the catalog shows it; {@code perMemberLimit} is absent (null) when one member may buy any number. Stock and
 * available are the sums over its buckets; {@code buckets} is how many rows its stock is spread over.
 */
public record SkuView(long id, String code, String name, BigDecimal price, int stock, int available,
        Integer perMemberLimit, int buckets) {

    static SkuView of(Sku sku) {
        return new SkuView(sku.id, sku.code, sku.name, sku.price, sku.stock, sku.available(), sku.perMemberLimit,
                sku.buckets);
    }
}
