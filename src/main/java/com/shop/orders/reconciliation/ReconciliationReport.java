package com.shop.orders.reconciliation;

import java.util.List;

/** A date's reconciliation of one channel and every difference it found, settled or not. */
public record ReconciliationReport(ReconciliationRun run, List<Difference> differences) {
}
