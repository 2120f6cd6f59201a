package com.shop.orders.inventory;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** The new stock on hand; it may not go below what pending orders have reserved. */
public record RestockRequest(@NotNull @Min(0) @Max(10_000_000) Integer stock) {
}
