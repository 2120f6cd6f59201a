package com.shop.orders.reconciliation;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The bill date to reconcile, Alipay's day (China time), as yyyy-MM-dd. */
public record RunRequest(@NotNull @Pattern(regexp = "\\d{4}-\\d{2}-\\d{2}", message = "must be a date like 2026-12-01")
        String billDate) {
}
