package com.shop.orders.reconciliation;

import java.time.Instant;
import java.time.LocalDate;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A date's reconciliation against one channel's bill, as stored: DUE (waiting for its time), RUNNING (one replica holds it), FAILED (tried again
 * at {@code nextAttemptAt}, {@code lastError} says why) or DONE. Like the stored row, every field is present: the ones
 * not known yet are null, and declared nullable.
 */
public record ReconciliationRun(LocalDate billDate,
        @Schema(required = true, description = "The channel whose trade bill was reconciled", example = "wechat")
        String channel, String status, int attempts, Instant nextAttemptAt,
        @Schema(nullable = true, description = "When the last attempt started, null before the first") Instant startedAt,
        @Schema(nullable = true, description = "When it was done, null until then") Instant finishedAt,
        @Schema(nullable = true, description = "Why the last attempt failed, null when none has") String lastError,
        @Schema(nullable = true, description = "Payments in the bill, null until the bill is read") Integer billPayments,
        @Schema(nullable = true, description = "Refunds in the bill, null until the bill is read") Integer billRefunds,
        @Schema(nullable = true, description = "Differences found, null until it is done") Integer differences) {
}
