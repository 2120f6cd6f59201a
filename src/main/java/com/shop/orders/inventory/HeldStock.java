package com.shop.orders.inventory;

import java.util.List;

/**
 * What a pending order item holds: {@code quantity} units of a SKU, reserved from the buckets in {@code buckets}
 * (see {@link BucketShare}) under the SKU's bucket layout {@code layout}, or from the SKU's own row when
 * {@code buckets} is null (the SKU had no buckets when the order was placed).
 */
public record HeldStock(long skuId, int quantity, String buckets, Integer layout) {

    public static HeldStock onSkuRow(long skuId, int quantity) {
        return new HeldStock(skuId, quantity, null, null);
    }

    boolean inBuckets() {
        return buckets != null;
    }

    List<BucketShare> shares() {
        return BucketShare.parse(buckets);
    }
}
