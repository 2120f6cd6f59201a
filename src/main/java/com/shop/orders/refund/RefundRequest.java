package com.shop.orders.refund;

import java.math.BigDecimal;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A refund an admin asks for: {@code amount} yuan (at most two decimals) of what the order's payment has left, and
 * optionally units that come back to stock.
 */
public record RefundRequest(
        @NotNull @DecimalMin(value = "0", inclusive = false) @Digits(integer = 10, fraction = 2) BigDecimal amount,
        @Size(max = 256) String reason,
        @Size(max = 50) List<@Valid @NotNull Restock> restock) {

    @Schema(name = "RefundRestock")
    public record Restock(@NotNull @Min(1) Long skuId, @NotNull @Min(1) @Max(999) Integer quantity) {
    }

    List<Restock> restockLines() {
        return restock == null ? List.of() : restock;
    }
}
