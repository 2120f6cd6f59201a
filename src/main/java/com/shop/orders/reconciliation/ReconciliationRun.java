package com.shop.orders.reconciliation;

import java.time.Instant;
import java.time.LocalDate;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A date's reconciliation against one channel's bill, as stored: DUE (waiting for its time), RUNNING (one replica holds it), FAILED (tried again
 * at {@code nextAttemptAt}, {@code lastError} says why) or DONE.
 */
public record ReconciliationRun(LocalDate billDate,
        @Schema(required = true, description = "The channel whose trade bill was reconciled", example = "wechat")
        String channel, String status, int attempts, Instant nextAttemptAt,
        Instant startedAt, Instant finishedAt, String lastError, Integer billPayments, Integer billRefunds,
        Integer differences) {
}
