package com.shop.orders.order;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Order numbers double as Alipay's {@code out_trade_no}: readable (UTC time first) and hard to
 * guess. The unique key in the database is the real guarantee.
 */
final class OrderNumbers {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();

    private OrderNumbers() {
    }

    static String next(Instant now) {
        String random = Long.toString(RANDOM.nextLong(10_000_000_000L));
        return TIME.format(now) + "0".repeat(10 - random.length()) + random;
    }
}
