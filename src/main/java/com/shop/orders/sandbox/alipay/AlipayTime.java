package com.shop.orders.sandbox.alipay;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Alipay writes and reads every date as "yyyy-MM-dd HH:mm:ss" in China time. */
final class AlipayTime {

    static final ZoneId CHINA = ZoneId.of("Asia/Shanghai");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private AlipayTime() {
    }

    static String format(Instant instant) {
        return FORMAT.format(instant.atZone(CHINA));
    }

    static Optional<Instant> parse(String text) {
        try {
            return Optional.of(LocalDateTime.parse(text, FORMAT).atZone(CHINA).toInstant());
        } catch (DateTimeParseException | NullPointerException e) {
            return Optional.empty();
        }
    }
}
