package com.shop.orders.reconciliation;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * A stored difference. {@code settlement} is null while it waits for someone (flagged): CONFIRMED_PAID, REFUNDED or
 * REFUND_RECORDED once the reconciliation settled it through the payment or refund paths, RESOLVED once an admin did.
 * Like the stored row, every field is present: the ones a difference may lack are null, and declared nullable.
 */
public record Difference(long id, LocalDate billDate,
        @Schema(required = true, description = "The channel whose bill it differs from", example = "wechat")
        String channel, DifferenceKind kind, String outTradeNo,
        @Schema(nullable = true, description = "The order, null when this service never created one for the trade")
        Long orderId,
        @Schema(nullable = true, description = "The wallet's trade number, null when it is not known")
        String tradeNo,
        @Schema(nullable = true, description = "The amount in the bill, null when the bill does not have the entry")
        BigDecimal billAmount,
        @Schema(nullable = true, description = "The amount recorded here, null when nothing is recorded")
        BigDecimal recordedAmount,
        String detail, Instant foundAt,
        @Schema(nullable = true, description = "How it was settled, null while it waits for someone (flagged)")
        String settlement,
        @Schema(nullable = true, description = "When it was settled, null while it is not") Instant settledAt,
        @Schema(nullable = true, description = "The admin's note on resolving it, null before") String note,
        @JsonIgnore String entryKey) {

    public enum Settlement {
        CONFIRMED_PAID,
        REFUNDED,
        /** A refund the wallet made that was not recorded here: its refund query confirmed it, and it is recorded now. */
        REFUND_RECORDED,
        RESOLVED
    }
}
