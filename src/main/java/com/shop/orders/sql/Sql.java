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

    /**
     * An IN list whose values are padded to the next power of two by repeating the last one (which matches the same
     * rows): a batch statement then has a few shapes, not one per batch size, and each is prepared once per
     * connection and kept in its cache, instead of a new statement prepared and cached for every size (as Hibernate's
     * {@code in_clause_parameter_padding}). For lists whose size follows the load, such as a second's confirmations.
     */
    public static InList inList(List<?> values) {
        List<Object> padded = new ArrayList<>(values);
        int size = values.isEmpty() ? 0 : Integer.highestOneBit(values.size());
        if (size < values.size()) {
            size <<= 1;
        }
        while (padded.size() < size) {
            padded.add(values.get(values.size() - 1));
        }
        return new InList(placeholders(padded.size()), padded);
    }

    /** An IN list's "?, ?, ?" and its values. */
    public record InList(String placeholders, List<Object> values) {
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
