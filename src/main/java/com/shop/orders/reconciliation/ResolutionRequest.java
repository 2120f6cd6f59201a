package com.shop.orders.reconciliation;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** What was done about a flagged difference, kept with it. */
public record ResolutionRequest(@NotBlank @Size(max = 500) String note) {
}
