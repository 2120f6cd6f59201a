package com.shop.orders.inventory;

/** A quantity of one SKU that moves between available, reserved and sold. */
public record StockLine(long skuId, int quantity) {
}
