package com.shop.orders.inventory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.sql.Deadlock;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * An admin's changes to a SKU: its purchase limit, its stock on hand, its buckets. Each is one transaction that
 * locks the SKU's row and then every bucket row (ascending), so it waits for the placements and releases in flight
 * on them, and every placement after it sees the change: the SKU's version moves on with each change that a
 * placement was computed with, and a bucket reservation succeeds only at its order's version.
 */
@ApplicationScoped
public class SkuChanges {

    public static final int MAX_BUCKETS = 64;

    /** How a change ended. */
    public enum Outcome {
        CHANGED, NO_SUCH_SKU, BELOW_RESERVATIONS
    }

    /** The SKU's row as read under its lock. */
    private record Locked(int buckets, int stock, int lockStock, int version, int layout) {
    }

    private final Pool pool;
    private final SkuCatalog catalog;
    private final EmptyBuckets emptyBuckets;

    public SkuChanges(Pool pool, SkuCatalog catalog, EmptyBuckets emptyBuckets) {
        this.pool = pool;
        this.catalog = catalog;
        this.emptyBuckets = emptyBuckets;
    }

    /** Sets or (null) lifts the purchase limit. Placements computed with the old one fail their lock and start over. */
    public Uni<Outcome> setPerMemberLimit(long skuId, Integer limit) {
        return change(skuId, (connection, sku) -> connection
                .preparedQuery("UPDATE sku SET per_member_limit = ?, version = version + 1 WHERE id = ?")
                .execute(Tuple.tuple().addValue(limit).addLong(skuId))
                .chain(() -> connection.preparedQuery("UPDATE sku_bucket SET sku_version = ? WHERE sku_id = ?")
                        .execute(Tuple.of(sku.version() + 1, skuId)))
                .replaceWith(Outcome.CHANGED));
    }

    /**
     * Sets the stock on hand; refused when it would fall below what pending orders have reserved. On a bucketed
     * SKU every bucket keeps what is reserved in it, and the free units are spread evenly.
     */
    public Uni<Outcome> setStock(long skuId, int stock) {
        return change(skuId, (connection, sku) -> sku.buckets() == 1
                ? (stock < sku.lockStock() ? Uni.createFrom().item(Outcome.BELOW_RESERVATIONS)
                        : connection.preparedQuery("UPDATE sku SET stock = ? WHERE id = ?").execute(Tuple.of(stock, skuId))
                                .replaceWith(Outcome.CHANGED))
                : lockBuckets(connection, skuId).chain(locks -> {
                    int reserved = locks.stream().mapToInt(Integer::intValue).sum();
                    if (stock < reserved) {
                        return Uni.createFrom().item(Outcome.BELOW_RESERVATIONS);
                    }
                    List<BucketShare> stocks = new ArrayList<>();
                    for (int bucket = 0; bucket < locks.size(); bucket++) {
                        stocks.add(new BucketShare(bucket, locks.get(bucket) + share(stock - reserved, bucket, locks.size())));
                    }
                    return connection.preparedQuery("UPDATE sku_bucket SET stock = " + BucketShare.caseByBucket(stocks)
                            + " WHERE sku_id = ?").execute(Tuple.from(BucketShare.unitsByBucket(stocks)).addLong(skuId))
                            .replaceWith(Outcome.CHANGED);
                }));
    }

    /**
     * Lays the SKU's stock out over {@code buckets} rows (1: the SKU's own row, as a SKU without buckets): every
     * unit pending orders hold goes to bucket 0 (items placed before read it as theirs, see {@link StockService}),
     * and the free units are spread evenly. Placements computed with the old layout fail their lock and start over.
     */
    public Uni<Outcome> setBuckets(long skuId, int buckets) {
        return change(skuId, (connection, sku) -> totals(connection, skuId, sku)
                .chain(totals -> connection.preparedQuery("DELETE FROM sku_bucket WHERE sku_id = ?").execute(Tuple.of(skuId))
                        .chain(() -> buckets == 1 ? onSkuRow(connection, skuId, totals)
                                : inBuckets(connection, skuId, sku, buckets, totals)))
                .replaceWith(Outcome.CHANGED));
    }

    /** The free units that go to {@code bucket} of {@code buckets} when {@code free} are spread evenly. */
    static int share(int free, int bucket, int buckets) {
        return free / buckets + (bucket < free % buckets ? 1 : 0);
    }

    private interface Change {
        Uni<Outcome> apply(SqlConnection connection, Locked sku);
    }

    /** Locks the SKU's row, applies the change and, once committed, lets placement read the SKU again. */
    private Uni<Outcome> change(long skuId, Change change) {
        return pool.withTransaction(connection -> connection
                .preparedQuery("SELECT buckets, stock, lock_stock, version, layout FROM sku WHERE id = ? FOR UPDATE")
                .execute(Tuple.of(skuId))
                .chain(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().item(Outcome.NO_SUCH_SKU);
                    }
                    Row row = rows.iterator().next();
                    return change.apply(connection, new Locked(row.getInteger(0), row.getInteger(1), row.getInteger(2),
                            row.getInteger(3), row.getInteger(4)));
                }))
                // InnoDB rolled the change back for a placement or release it crossed: do it again.
                .onFailure(Deadlock::isCause).retry().atMost(3)
                .invoke(outcome -> {
                    catalog.forget(skuId);
                    emptyBuckets.forget(skuId);
                });
    }

    /** Locks the bucket rows in ascending order; answers what is reserved in each. */
    private static Uni<List<Integer>> lockBuckets(SqlConnection connection, long skuId) {
        return connection.preparedQuery("SELECT lock_stock FROM sku_bucket WHERE sku_id = ? ORDER BY bucket_no FOR UPDATE")
                .execute(Tuple.of(skuId))
                .map(rows -> {
                    List<Integer> locks = new ArrayList<>();
                    rows.forEach(row -> locks.add(row.getInteger(0)));
                    return locks;
                });
    }

    /** The SKU's stock and reservations, wherever they are, read under their locks: {stock, reserved}. */
    private static Uni<int[]> totals(SqlConnection connection, long skuId, Locked sku) {
        if (sku.buckets() == 1) {
            return Uni.createFrom().item(new int[] {sku.stock(), sku.lockStock()});
        }
        return connection.preparedQuery("SELECT stock, lock_stock FROM sku_bucket WHERE sku_id = ? ORDER BY bucket_no "
                + "FOR UPDATE").execute(Tuple.of(skuId))
                .map(rows -> {
                    int[] totals = new int[2];
                    rows.forEach(row -> {
                        totals[0] += row.getInteger(0);
                        totals[1] += row.getInteger(1);
                    });
                    return totals;
                });
    }

    private static Uni<Void> onSkuRow(SqlConnection connection, long skuId, int[] totals) {
        return connection.preparedQuery("UPDATE sku SET buckets = 1, stock = ?, lock_stock = ?, version = version + 1, "
                + "layout = layout + 1 WHERE id = ?").execute(Tuple.of(totals[0], totals[1], skuId)).replaceWithVoid();
    }

    private static Uni<Void> inBuckets(SqlConnection connection, long skuId, Locked sku, int buckets, int[] totals) {
        int free = totals[0] - totals[1];
        Tuple params = Tuple.tuple();
        for (int bucket = 0; bucket < buckets; bucket++) {
            int reserved = bucket == 0 ? totals[1] : 0;
            params.addLong(skuId).addInteger(bucket).addInteger(reserved + share(free, bucket, buckets))
                    .addInteger(reserved).addInteger(sku.version() + 1).addInteger(sku.layout() + 1);
        }
        return connection.preparedQuery("UPDATE sku SET buckets = ?, stock = 0, lock_stock = 0, version = version + 1, "
                + "layout = layout + 1 WHERE id = ?").execute(Tuple.of(buckets, skuId))
                .chain(() -> connection.preparedQuery("INSERT INTO sku_bucket (sku_id, bucket_no, stock, lock_stock, "
                        + "sku_version, layout) VALUES " + String.join(", ",
                                Collections.nCopies(buckets, "(?, ?, ?, ?, ?, ?)")))
                        .execute(params))
                .replaceWithVoid();
    }
}
