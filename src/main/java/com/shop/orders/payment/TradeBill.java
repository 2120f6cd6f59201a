package com.shop.orders.payment;

import java.time.LocalDate;
import java.util.List;

/** A day's trade bill as a wallet published it: every payment and refund of the channel that completed that day. */
public record TradeBill(LocalDate date, List<BillEntry> entries) {

    public long payments() {
        return entries.stream().filter(e -> e.kind() == BillEntry.Kind.PAYMENT).count();
    }

    public long refunds() {
        return entries.size() - payments();
    }
}
