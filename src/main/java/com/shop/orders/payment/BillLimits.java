package com.shop.orders.payment;

import java.time.Duration;
import java.time.ZoneId;

/**
 * How a bill is read: the wallet's day is midnight to midnight in {@code zone} (its times are written in it), and a
 * download may take {@code timeout} and be {@code maxBytes} large at most (as downloaded; unpacked, ten times that).
 */
public record BillLimits(ZoneId zone, Duration timeout, long maxBytes) {
}
