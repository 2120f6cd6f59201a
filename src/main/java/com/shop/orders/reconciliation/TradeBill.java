package com.shop.orders.reconciliation;

import java.time.LocalDate;
import java.util.List;

/** A day's trade bill as Alipay published it: every payment and refund that completed that day. */
public record TradeBill(LocalDate date, List<BillEntry> entries) {

    public long payments() {
        return entries.stream().filter(e -> e.kind() == BillEntry.Kind.PAYMENT).count();
    }

    public long refunds() {
        return entries.size() - payments();
    }
}
