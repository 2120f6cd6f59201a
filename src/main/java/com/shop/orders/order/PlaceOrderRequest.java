package com.shop.orders.order;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Limits here are the hard API bounds; {@link OrderConfig} may narrow them. */
public record PlaceOrderRequest(@NotEmpty @Size(max = 50) List<@Valid @NotNull Line> items) {

    @Schema(name = "OrderLine")
    public record Line(@NotNull @Min(1) Long skuId, @NotNull @Min(1) @Max(999) Integer quantity) {
    }
}
