package com.shop.orders.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** At most this many units of the SKU in one member's pending and paid orders (DELETE the limit to lift it). */
public record PerMemberLimitRequest(@NotNull @Min(1) @Max(1_000_000) Integer perMemberLimit) {
}
