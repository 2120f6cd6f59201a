package com.shop.orders.payment;

import java.time.LocalDate;

import io.smallrye.mutiny.Uni;

/**
 * A channel's daily trade bill, as its wallet publishes it: every payment and refund of the channel's trades that
 * completed that day. Each wallet's package implements it (the wallet's API, download and file layout stay there);
 * the reconciliation only reads the entries.
 */
public interface ChannelBills {

    /** The channel's name, as {@link PaymentChannel#name()}. */
    String channel();

    /**
     * The day's bill. Fails with {@link BillNotPublishedException} while the wallet has not made it,
     * {@link UnusableBillException} when it cannot be trusted as a whole (truncated, tampered with, not the wallet's
     * layout), {@link BillNotDownloadedException} when its file could not be had, and as the channel's calls do
     * ({@link PaymentGatewayException}) when the wallet could not be asked: each is worth trying again later.
     */
    Uni<TradeBill> of(LocalDate date, BillLimits limits);
}
