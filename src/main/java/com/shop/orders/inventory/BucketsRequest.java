package com.shop.orders.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** How many rows to spread the SKU's stock over; 1 keeps it on the SKU's own row. */
public record BucketsRequest(@NotNull @Min(1) @Max(SkuChanges.MAX_BUCKETS) Integer buckets) {
}
