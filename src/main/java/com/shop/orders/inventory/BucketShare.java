package com.shop.orders.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Units of an order item reserved from one bucket of its SKU. An item's shares are stored as text on its row
 * ({@code order_item.stock_buckets}, "bucket:units" pairs in ascending bucket order), written with the item.
 */
public record BucketShare(int bucket, int units) {

    public static String format(List<BucketShare> shares) {
        return shares.stream().map(share -> share.bucket + ":" + share.units).collect(Collectors.joining(","));
    }

    /** "(CASE bucket_no WHEN ? THEN ? ... END)": each share's units by its bucket, for {@link #unitsByBucket}. */
    static String caseByBucket(List<BucketShare> shares) {
        return "(CASE bucket_no" + " WHEN ? THEN ?".repeat(shares.size()) + " END)";
    }

    /** The parameters of {@link #caseByBucket}. */
    static List<Object> unitsByBucket(List<BucketShare> shares) {
        List<Object> params = new ArrayList<>(shares.size() * 2);
        shares.forEach(share -> {
            params.add(share.bucket);
            params.add(share.units);
        });
        return params;
    }

    public static List<BucketShare> parse(String text) {
        List<BucketShare> shares = new ArrayList<>();
        for (String pair : text.split(",")) {
            int colon = pair.indexOf(':');
            shares.add(new BucketShare(Integer.parseInt(pair.substring(0, colon)),
                    Integer.parseInt(pair.substring(colon + 1))));
        }
        return shares;
    }
}
