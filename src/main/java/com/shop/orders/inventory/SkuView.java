package com.shop.orders.inventory;

import java.math.BigDecimal;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A SKU as the catalog shows it; {@code perMemberLimit} is null when one member may buy any number (present all the
 * same, as the catalog's examples show, so the document declares it nullable). Stock and available are the sums
 * over its buckets; {@code buckets} is how many rows its stock is spread over.
 */
public record SkuView(long id, String code, String name, BigDecimal price, int stock, int available,
        @Schema(nullable = true, description = "The most one member may buy; null: no limit") Integer perMemberLimit,
        int buckets) {

    static SkuView of(Sku sku) {
        return new SkuView(sku.id, sku.code, sku.name, sku.price, sku.stock, sku.available(), sku.perMemberLimit,
                sku.buckets);
    }
}
