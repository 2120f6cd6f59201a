package com.shop.orders.inventory;

import java.math.BigDecimal;

/** A SKU as the catalog shows it; {@code perMemberLimit} is absent (null) when one member may buy any number. */
public record SkuView(long id, String code, String name, BigDecimal price, int stock, int available,
        Integer perMemberLimit) {

    static SkuView of(Sku sku) {
        return new SkuView(sku.id, sku.code, sku.name, sku.price, sku.stock, sku.available(), sku.perMemberLimit);
    }
}
