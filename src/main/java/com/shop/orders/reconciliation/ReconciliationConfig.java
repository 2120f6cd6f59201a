package com.shop.orders.reconciliation;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Reconciliation against each channel's daily trade bill: when replicas ask for a day's bills, how they share the
 * work and how they retry, and the limits of a download.
 */
@ConfigMapping(prefix = "shop.reconciliation")
public interface ReconciliationConfig {

    /** Whether replicas reconcile each day by themselves; an admin can run a date either way. */
    @WithDefault("true")
    boolean scheduled();

    /** The wallets' day (Alipay's and WeChat Pay's): a bill holds what completed from midnight to midnight here. */
    @WithDefault("Asia/Shanghai")
    ZoneId zone();

    /**
     * Time of day (in {@link #zone()}) from which yesterday's bills are asked for; Alipay makes its bill by 09:00,
     * WeChat Pay after about 10:00 (until then its run fails as not published and is retried).
     */
    @WithDefault("09:30")
    LocalTime billsFrom();

    /** How often each replica looks for a date that is due (a new day, or a failed run's retry). */
    @WithDefault("5m")
    Duration checkEvery();

    /** Dates never reconciled are caught up this many days back (replicas that were down over a weekend). */
    @WithDefault("7")
    int daysBack();

    /** Wait after a failed run (a bill not made yet, unusable, the wallet unreachable), doubled each time. */
    @WithDefault("10m")
    Duration retryBackoff();

    @WithDefault("2h")
    Duration retryBackoffMax();

    /** How long a replica holds the date it runs; past it another may take the date over (the first one died). */
    @WithDefault("15m")
    Duration lease();

    /** Longest a bill download may take, from the request to its last byte. */
    @WithDefault("60s")
    Duration downloadTimeout();

    /** Largest bill accepted, zipped; a bill's files unzipped may be at most ten times this. */
    @WithDefault("64M")
    MemorySize maxBillSize();
}
