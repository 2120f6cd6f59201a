package com.shop.orders.inventory;

import java.math.BigDecimal;

public record SkuView(long id, String code, String name, BigDecimal price, int stock, int available) {

    static SkuView of(Sku sku) {
        return new SkuView(sku.id, sku.code, sku.name, sku.price, sku.stock, sku.available());
    }
}
