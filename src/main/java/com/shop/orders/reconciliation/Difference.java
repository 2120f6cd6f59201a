package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * A stored difference. {@code settlement} is null while it waits for someone (flagged): CONFIRMED_PAID, REFUNDED or
 * REFUND_RECORDED once the reconciliation settled it through the payment or refund paths, RESOLVED once an admin did.
 */
public record Difference(long id, LocalDate billDate,
        @Schema(required = true, description = "The channel whose bill it differs from", example = "wechat")
        String channel, DifferenceKind kind, String outTradeNo, Long orderId,
        String tradeNo, BigDecimal billAmount, BigDecimal recordedAmount, String detail, Instant foundAt,
        String settlement, Instant settledAt, String note, @JsonIgnore String entryKey) {

    public enum Settlement {
        CONFIRMED_PAID,
        REFUNDED,
        /** A refund the wallet made that was not recorded here: its refund query confirmed it, and it is recorded now. */
        REFUND_RECORDED,
        RESOLVED
    }
}
