package com.shop.orders.sql;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Small pieces of writing plain SQL for the reactive client. Times are stored as UTC DATETIME(6), as Hibernate does. */
public final class Sql {

    private Sql() {
    }

    /** "?, ?, ?" for an IN list of {@code count} values. */
    public static String placeholders(int count) {
        return String.join(", ", Collections.nCopies(count, "?"));
    }

    public static LocalDateTime utc(Instant instant) {
        return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant instant(LocalDateTime utc) {
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }

    /** Statement parameters: {@code first}, then every one of {@code rest} (e.g. a value, then the ids it is set for). */
    public static List<Object> withFirst(Object first, List<?> rest) {
        List<Object> values = new ArrayList<>(rest.size() + 1);
        values.add(first);
        values.addAll(rest);
        return values;
    }
}
