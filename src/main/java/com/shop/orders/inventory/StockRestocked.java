package com.shop.orders.inventory;

/** The stock on hand of a SKU was set by an admin (CDI event, after the change committed). */
public record StockRestocked(long skuId) {
}
