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
 * optionally units that come back to stock. {@code channel}, when given, is the channel the admin means to refund
 * on: it must be the one whose payment the order accepted (the money goes back the way it came).
 */
public record RefundRequest(
        @NotNull @DecimalMin(value = "0", inclusive = false) @Digits(integer = 10, fraction = 2) BigDecimal amount,
        @Size(max = 256) String reason,
        @Size(max = 50) List<@Valid @NotNull Restock> restock,
        @Schema(description = "The channel the order was paid with (alipay, wechat), as a check: a refund naming "
                + "another channel is refused (409) and nothing is recorded. Optional.", example = "wechat")
        @Size(max = 16) String channel) {

    @Schema(name = "RefundRestock")
    public record Restock(@NotNull @Min(1) Long skuId, @NotNull @Min(1) @Max(999) Integer quantity) {
    }

    List<Restock> restockLines() {
        return restock == null ? List.of() : restock;
    }
}
