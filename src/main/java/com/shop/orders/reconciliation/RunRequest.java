package com.shop.orders.reconciliation;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The bill date to reconcile, the wallets' day (China time), as yyyy-MM-dd, and the channel whose bill: one of
 * shop.payment.channels; none names Alipay's (the default channel), as before there were channels.
 */
public record RunRequest(@NotNull @Pattern(regexp = "\\d{4}-\\d{2}-\\d{2}", message = "must be a date like 2026-12-01")
        String billDate,
        @Schema(description = "The channel whose trade bill: alipay or wechat, one the shop is configured with; "
                + "default: the default channel (alipay when configured)", example = "wechat")
        String channel) {
}
