package com.shop.orders.reconciliation;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.payment.TradeBill;
import com.shop.orders.resilience.Backoff;
import com.shop.orders.sql.Sql;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The reconciliation's tables: a run per date and channel, claimed by one replica at a time with a conditional UPDATE
 * and a lease, and the differences found, unique per date, channel, kind and entry so that a rerun stores nothing
 * twice. A channel's records are its own trades (payment.channel) and their refunds (refund.out_trade_no).
 */
@ApplicationScoped
public class ReconciliationStore {

    private static final String RUN_COLUMNS = "bill_date, channel, status, attempts, next_attempt_at, started_at, finished_at, "
            + "last_error, bill_payments, bill_refunds, differences";
    private static final String DIFFERENCE_COLUMNS = "id, bill_date, channel, kind, out_trade_no, entry_key, order_id, trade_no, "
            + "bill_amount, recorded_amount, detail, found_at, settlement, settled_at, note";
    private static final String RECORD_COLUMNS = "o.id, o.order_no, o.status, o.total_amount, p.status AS payment_status, "
            + "p.out_trade_no, p.trade_no, p.paid_amount, p.paid_at, p.refund_amount, p.refunded_at";
    /** Order numbers per IN list. */
    private static final int CHUNK = 500;

    private final Pool pool;
    private final Backoff backoff;
    private final Duration lease;

    public ReconciliationStore(Pool pool, ReconciliationConfig config) {
        this.pool = pool;
        this.backoff = new Backoff(config.retryBackoff(), config.retryBackoffMax());
        this.lease = config.lease();
    }

    /** A date's run of one channel's bill. */
    record Day(LocalDate date, String channel) {

        @Override
        public String toString() {
            return date + " (" + channel + ")";
        }
    }

    /** The date's run, created DUE from {@code dueAt} if there is none. */
    Uni<Void> ensure(Day day, Instant dueAt) {
        return pool.preparedQuery("INSERT IGNORE INTO reconciliation_run (bill_date, channel, status, next_attempt_at) "
                + "VALUES (?, ?, 'DUE', ?)").execute(Tuple.of(day.date(), day.channel(), Sql.utc(dueAt)))
                .replaceWithVoid();
    }

    /**
     * Runs due now: waiting or failed with their time come, or held by a replica whose lease ran out; only of the
     * channels given (a channel no longer configured keeps its runs, unrun).
     */
    Uni<List<Day>> due(Instant now, Collection<String> channels) {
        return pool.preparedQuery("SELECT bill_date, channel FROM reconciliation_run WHERE ((status IN ('DUE', 'FAILED') "
                + "AND next_attempt_at <= ?) OR (status = 'RUNNING' AND lease_until < ?)) AND channel IN ("
                + Sql.placeholders(channels.size()) + ") ORDER BY bill_date, channel LIMIT 10")
                .execute(Tuple.from(params(List.of(Sql.utc(now), Sql.utc(now)), channels)))
                .map(rows -> {
                    List<Day> days = new ArrayList<>();
                    rows.forEach(row -> days.add(new Day(row.getLocalDate(0), row.getString(1))));
                    return days;
                });
    }

    private static List<Object> params(List<Object> first, Collection<?> more) {
        List<Object> all = new ArrayList<>(first);
        all.addAll(more);
        return all;
    }

    /**
     * Takes the date for this replica, unless another holds it; {@code onlyWhenDue}: and only if its time has come
     * (the job), otherwise whatever its state (an admin's run, a rerun of a done date).
     */
    Uni<Boolean> claim(Day day, Instant now, boolean onlyWhenDue) {
        String when = onlyWhenDue
                ? "((status IN ('DUE', 'FAILED') AND next_attempt_at <= ?) OR (status = 'RUNNING' AND lease_until < ?))"
                : "(status <> 'RUNNING' OR lease_until < ?)";
        Tuple params = Tuple.of(Sql.utc(now.plus(lease)), Sql.utc(now), day.date(), day.channel(), Sql.utc(now));
        if (onlyWhenDue) {
            params.addValue(Sql.utc(now));
        }
        Uni<Void> exists = onlyWhenDue ? Uni.createFrom().voidItem() : ensure(day, now);
        return exists.chain(() -> pool.preparedQuery("UPDATE reconciliation_run SET status = 'RUNNING', "
                + "attempts = attempts + 1, lease_until = ?, started_at = ? WHERE bill_date = ? AND channel = ? AND " + when)
                .execute(params)
                .map(result -> result.rowCount() == 1));
    }

    Uni<Void> done(Day day, TradeBill bill, Instant now) {
        return pool.preparedQuery("UPDATE reconciliation_run SET status = 'DONE', finished_at = ?, lease_until = NULL, "
                + "last_error = NULL, bill_payments = ?, bill_refunds = ?, differences = (SELECT COUNT(*) FROM "
                + "reconciliation_difference WHERE bill_date = ? AND channel = ?) WHERE bill_date = ? AND channel = ?")
                .execute(Tuple.from(List.of(Sql.utc(now), (int) bill.payments(), (int) bill.refunds(), day.date(),
                        day.channel(), day.date(), day.channel())))
                .replaceWithVoid();
    }

    /** Failed: tried again after the backoff of its attempts so far. */
    Uni<Void> failed(Day day, String reason, Instant now) {
        List<Object> params = new ArrayList<>(backoff.sqlParams(now));
        params.add(Sql.utc(now));
        params.add(reason.length() > 500 ? reason.substring(0, 500) : reason);
        params.add(day.date());
        params.add(day.channel());
        return pool.preparedQuery("UPDATE reconciliation_run SET status = 'FAILED', next_attempt_at = "
                + backoff.sqlAfter("attempts - 1") + ", finished_at = ?, lease_until = NULL, last_error = ? "
                + "WHERE bill_date = ? AND channel = ?")
                .execute(Tuple.from(params))
                .replaceWithVoid();
    }

    Uni<ReconciliationRun> run(Day day) {
        return pool.preparedQuery("SELECT " + RUN_COLUMNS + " FROM reconciliation_run WHERE bill_date = ? AND channel = ?")
                .execute(Tuple.of(day.date(), day.channel()))
                .map(rows -> rows.size() == 0 ? null : run(rows.iterator().next()));
    }

    /** What the service recorded of these orders and of their trade on the channel, by order number. */
    Uni<Map<String, RecordedPayment>> recorded(String channel, Collection<String> orderNos) {
        List<String> all = List.copyOf(orderNos);
        List<List<String>> chunks = new ArrayList<>();
        for (int i = 0; i < all.size(); i += CHUNK) {
            chunks.add(all.subList(i, Math.min(all.size(), i + CHUNK)));
        }
        return Multi.createFrom().iterable(chunks)
                .onItem().transformToUniAndConcatenate(chunk -> pool.preparedQuery("SELECT " + RECORD_COLUMNS
                        + " FROM orders o LEFT JOIN payment p ON p.order_id = o.id AND p.channel = ? WHERE o.order_no IN ("
                        + Sql.placeholders(chunk.size()) + ")").execute(Tuple.from(params(List.of(channel), chunk))))
                .collect().in(LinkedHashMap<String, RecordedPayment>::new, (map, rows) -> rows
                        .forEach(row -> map.put(row.getString("order_no"), recorded(row))))
                .chain(byOrderNo -> withRefunds(List.copyOf(byOrderNo.values())).map(found -> {
                    Map<String, RecordedPayment> withRefunds = new LinkedHashMap<>();
                    found.forEach(recorded -> withRefunds.put(recorded.orderNo(), recorded));
                    return withRefunds;
                }));
    }

    /**
     * The channel's payments that came in, or had a refund complete, from {@code start} (inclusive) to {@code end}.
     */
    Uni<List<RecordedPayment>> recordedBetween(String channel, Instant start, Instant end) {
        return pool.preparedQuery("SELECT " + RECORD_COLUMNS + " FROM payment p JOIN orders o ON o.id = p.order_id "
                + "WHERE p.channel = ? AND p.paid_at >= ? AND p.paid_at < ? UNION SELECT "
                + RECORD_COLUMNS + " FROM payment p JOIN orders o ON o.id = p.order_id WHERE p.channel = ? "
                + "AND EXISTS (SELECT 1 FROM refund r WHERE r.out_trade_no = p.out_trade_no "
                + "AND r.completed_at >= ? AND r.completed_at < ?)")
                .execute(Tuple.from(List.of(channel, Sql.utc(start), Sql.utc(end), channel, Sql.utc(start),
                        Sql.utc(end))))
                .map(rows -> {
                    List<RecordedPayment> recorded = new ArrayList<>();
                    rows.forEach(row -> recorded.add(recorded(row)));
                    return recorded;
                })
                .chain(this::withRefunds);
    }

    /** The records with the refunds of their trade on the channel, oldest first. */
    private Uni<List<RecordedPayment>> withRefunds(List<RecordedPayment> recorded) {
        List<List<RecordedPayment>> chunks = new ArrayList<>();
        for (int i = 0; i < recorded.size(); i += CHUNK) {
            chunks.add(recorded.subList(i, Math.min(recorded.size(), i + CHUNK)));
        }
        Map<Long, List<RecordedRefund>> byOrder = new HashMap<>();
        return Multi.createFrom().iterable(chunks)
                .onItem().transformToUniAndConcatenate(chunk -> pool.preparedQuery("SELECT order_id, id, "
                        + "out_request_no, amount, status, completed_at FROM refund WHERE order_id IN ("
                        + Sql.placeholders(chunk.size()) + ") AND out_trade_no IN (" + Sql.placeholders(chunk.size())
                        + ") ORDER BY id")
                        .execute(Tuple.from(params(chunk.stream().<Object>map(RecordedPayment::orderId).toList(),
                                chunk.stream().map(RecordedPayment::outTradeNo).toList())))
                        .invoke(rows -> rows.forEach(row -> byOrder.computeIfAbsent(row.getLong("order_id"),
                                id -> new ArrayList<>()).add(new RecordedRefund(row.getLong("id"),
                                        row.getString("out_request_no"), row.getBigDecimal("amount"),
                                        row.getString("status"), Sql.instant(row.getLocalDateTime("completed_at")))))))
                .collect().last()
                .map(done -> recorded.stream()
                        .map(r -> r.withRefunds(byOrder.getOrDefault(r.orderId(), List.of()))).toList());
    }

    /** Stores the difference unless the same one is stored already; true when it is new. */
    Uni<Boolean> add(Day day, FoundDifference found, Instant now) {
        return pool.preparedQuery("INSERT IGNORE INTO reconciliation_difference (bill_date, channel, kind, out_trade_no, "
                + "entry_key, order_id, trade_no, bill_amount, recorded_amount, detail, found_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .execute(Tuple.from(Arrays.asList(day.date(), day.channel(), found.kind().name(), found.outTradeNo(), found.entryKey(),
                        found.orderId(), found.tradeNo(), found.billAmount(), found.recordedAmount(),
                        truncated(found.detail()), Sql.utc(now))))
                .map(result -> result.rowCount() == 1);
    }

    /** The date's differences of this kind that nobody has settled. */
    Uni<List<Difference>> unsettled(Day day, DifferenceKind kind) {
        return differences("WHERE bill_date = ? AND channel = ? AND kind = ? AND settlement IS NULL ORDER BY id",
                Tuple.of(day.date(), day.channel(), kind.name()));
    }

    Uni<List<Difference>> ofDay(Day day) {
        return differences("WHERE bill_date = ? AND channel = ? ORDER BY id", Tuple.of(day.date(), day.channel()));
    }

    /** Every difference nobody has settled, oldest date first. */
    Uni<List<Difference>> open(int limit) {
        return differences("WHERE settlement IS NULL ORDER BY bill_date, id LIMIT ?", Tuple.of(limit));
    }

    Uni<Difference> difference(long id) {
        return differences("WHERE id = ?", Tuple.of(id)).map(found -> found.isEmpty() ? null : found.get(0));
    }

    /** Settles an unsettled difference; false when it was settled already (or is not there). */
    Uni<Boolean> settle(long id, Difference.Settlement settlement, String note, Instant now) {
        return pool.preparedQuery("UPDATE reconciliation_difference SET settlement = ?, settled_at = ?, note = ? "
                + "WHERE id = ? AND settlement IS NULL")
                .execute(Tuple.of(settlement.name(), Sql.utc(now), truncated(note), id))
                .map(result -> result.rowCount() == 1);
    }

    /** Notes what the last attempt to settle found, leaving the difference flagged. */
    Uni<Void> note(long id, String note) {
        return pool.preparedQuery("UPDATE reconciliation_difference SET note = ? WHERE id = ? AND settlement IS NULL")
                .execute(Tuple.of(truncated(note), id))
                .replaceWithVoid();
    }

    /** Unsettled differences by channel and kind (a kind without any: absent). */
    Uni<Map<String, Map<DifferenceKind, Long>>> unsettledByChannelAndKind() {
        return pool.query("SELECT channel, kind, COUNT(*) FROM reconciliation_difference WHERE settlement IS NULL "
                + "GROUP BY channel, kind")
                .execute()
                .map(rows -> {
                    Map<String, Map<DifferenceKind, Long>> counts = new HashMap<>();
                    rows.forEach(row -> counts.computeIfAbsent(row.getString(0), channel -> new EnumMap<>(
                            DifferenceKind.class)).put(DifferenceKind.valueOf(row.getString(1)), row.getLong(2)));
                    return counts;
                });
    }

    private Uni<List<Difference>> differences(String where, Tuple params) {
        return pool.preparedQuery("SELECT " + DIFFERENCE_COLUMNS + " FROM reconciliation_difference " + where)
                .execute(params)
                .map(ReconciliationStore::differences);
    }

    private static List<Difference> differences(RowSet<Row> rows) {
        List<Difference> differences = new ArrayList<>();
        for (Row row : rows) {
            differences.add(new Difference(row.getLong("id"), row.getLocalDate("bill_date"), row.getString("channel"),
                    DifferenceKind.valueOf(row.getString("kind")), row.getString("out_trade_no"),
                    row.getLong("order_id"), row.getString("trade_no"), row.getBigDecimal("bill_amount"),
                    row.getBigDecimal("recorded_amount"), row.getString("detail"),
                    Sql.instant(row.getLocalDateTime("found_at")), row.getString("settlement"),
                    Sql.instant(row.getLocalDateTime("settled_at")), row.getString("note"), row.getString("entry_key")));
        }
        return differences;
    }

    private static ReconciliationRun run(Row row) {
        return new ReconciliationRun(row.getLocalDate("bill_date"), row.getString("channel"), row.getString("status"), row.getInteger("attempts"),
                Sql.instant(row.getLocalDateTime("next_attempt_at")), Sql.instant(row.getLocalDateTime("started_at")),
                Sql.instant(row.getLocalDateTime("finished_at")), row.getString("last_error"),
                row.getInteger("bill_payments"), row.getInteger("bill_refunds"), row.getInteger("differences"));
    }

    private static RecordedPayment recorded(Row row) {
        return new RecordedPayment(row.getLong("id"), row.getString("order_no"), row.getString("status"),
                row.getBigDecimal("total_amount"), row.getString("payment_status"), row.getString("trade_no"),
                row.getBigDecimal("paid_amount"), Sql.instant(row.getLocalDateTime("paid_at")),
                row.getBigDecimal("refund_amount"), Sql.instant(row.getLocalDateTime("refunded_at")), List.of(),
                row.getString("out_trade_no"));
    }

    private static String truncated(String text) {
        return text == null || text.length() <= 500 ? text : text.substring(0, 497) + "...";
    }
}
