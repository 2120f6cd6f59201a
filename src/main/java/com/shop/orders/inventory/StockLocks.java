package com.shop.orders.inventory;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.sql.Sql;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Reserves stock for a new order on the caller's plain SQL connection and transaction (placement's hot path);
 * {@link StockService} moves it afterwards. One conditional UPDATE per line: on the SKU's row, or on one of its
 * buckets; a line takes from several buckets only when it must ({@link #ALL_BUCKETS}).
 *
 * <p>Lock order: bucket rows first, as the transaction's first statements (SKU id order, ascending buckets), then
 * the caller's rows, then SKU rows last (SKU id order), right before COMMIT. A SKU row is one hot lock, held from
 * its UPDATE to the COMMIT only. A bucket is one of many; taking it first makes a miss cheap (the transaction has
 * done nothing else yet) and tells the order's items where their units are before they are written. Within a SKU a
 * placement tries buckets in ascending order only, from a random start, so no transaction waits for a lower bucket
 * while it holds a higher one.
 */
@ApplicationScoped
public class StockLocks {

    /** Where a line reserves: the SKU's own row (a SKU without buckets). */
    public static final int SKU_ROW = -1;
    /** Where a line reserves: all buckets, locked in ascending order, units taken from as few as can hold them. */
    public static final int ALL_BUCKETS = -2;
    /** Buckets one placement tries, ascending from its start, before it gives up its transaction. */
    private static final int TRIES_PER_TRANSACTION = 3;

    /**
     * A line to reserve, at the price, purchase limit and (bucketed SKU) version its order was computed with.
     * {@code buckets}: how many the SKU has; {@code bucket}: {@link #SKU_ROW}, {@link #ALL_BUCKETS}, or the bucket to
     * try first.
     */
    public record PricedLine(long skuId, int quantity, BigDecimal price, Integer perMemberLimit, int version,
            int buckets, int bucket) {
    }

    /**
     * No row matched: not enough available, or the price, limit or version is no longer the one the order used.
     * {@code bucket} is where it was tried.
     */
    public static final class NotLocked extends RuntimeException {
        private final long skuId;
        private final int bucket;

        NotLocked(long skuId, int bucket) {
            super("SKU " + skuId + " not locked", null, false, false);
            this.skuId = skuId;
            this.bucket = bucket;
        }

        public long skuId() {
            return skuId;
        }

        /** Whether only some buckets were tried: the others may still have the units. */
        public boolean triedSomeBuckets() {
            return bucket >= 0;
        }
    }

    private final EmptyBuckets emptyBuckets;

    public StockLocks(EmptyBuckets emptyBuckets) {
        this.emptyBuckets = emptyBuckets;
    }

    /**
     * Reserves the lines on bucketed SKUs; answers, by SKU id, the shares (see {@link BucketShare#format}) their items
     * are written with.
     */
    public Uni<Map<Long, String>> lockBuckets(SqlConnection connection, List<PricedLine> lines) {
        Map<Long, String> shares = new HashMap<>();
        return Multi.createFrom().iterable(inSkuOrder(lines, line -> line.bucket() != SKU_ROW))
                .onItem().transformToUniAndConcatenate(line -> (line.bucket() == ALL_BUCKETS
                        ? lockFromAllBuckets(connection, line)
                        : lockOneBucket(connection, line, line.bucket(), TRIES_PER_TRANSACTION))
                        .invoke(taken -> shares.put(line.skuId(), BucketShare.format(taken))))
                .collect().last()
                .map(last -> shares);
    }

    /** Reserves the lines on SKUs without buckets: last before COMMIT. */
    public Uni<Void> lockSkuRows(SqlConnection connection, List<PricedLine> lines) {
        return Multi.createFrom().iterable(inSkuOrder(lines, line -> line.bucket() == SKU_ROW))
                .onItem().transformToUniAndConcatenate(line -> lockSkuRow(connection, line))
                .collect().last()
                .replaceWithVoid();
    }

    private static List<PricedLine> inSkuOrder(List<PricedLine> lines, Predicate<PricedLine> which) {
        return lines.stream().filter(which).sorted(Comparator.comparingLong(PricedLine::skuId)).toList();
    }

    private static Uni<Void> lockSkuRow(SqlConnection connection, PricedLine line) {
        return connection.preparedQuery("UPDATE sku SET lock_stock = lock_stock + ? "
                + "WHERE id = ? AND price = ? AND per_member_limit <=> ? AND stock - lock_stock >= ?")
                .execute(Tuple.of(line.quantity(), line.skuId(), line.price(), line.perMemberLimit(), line.quantity()))
                .invoke(rows -> {
                    if (rows.rowCount() != 1) {
                        throw new NotLocked(line.skuId(), SKU_ROW);
                    }
                })
                .replaceWithVoid();
    }

    /** Tries {@code bucket}, then the next higher ones not known to be empty, {@code tries} in all. */
    private Uni<List<BucketShare>> lockOneBucket(SqlConnection connection, PricedLine line, int bucket, int tries) {
        return connection.preparedQuery("UPDATE sku_bucket SET lock_stock = lock_stock + ? "
                + "WHERE sku_id = ? AND bucket_no = ? AND sku_version = ? AND stock - lock_stock >= ?")
                .execute(Tuple.of(line.quantity(), line.skuId(), bucket, line.version(), line.quantity()))
                .chain(rows -> {
                    if (rows.rowCount() == 1) {
                        return Uni.createFrom().item(List.of(new BucketShare(bucket, line.quantity())));
                    }
                    emptyBuckets.markEmpty(line.skuId(), bucket);
                    int next = emptyBuckets.nextAbove(line.skuId(), bucket, line.buckets());
                    return next < 0 || tries <= 1 ? Uni.createFrom().failure(new NotLocked(line.skuId(), bucket))
                            : lockOneBucket(connection, line, next, tries - 1);
                });
    }

    /**
     * Locks every bucket (ascending), takes the units from the first bucket that holds them all, else from the
     * buckets in ascending order. Sold out only if all of them together lack the units.
     */
    private Uni<List<BucketShare>> lockFromAllBuckets(SqlConnection connection, PricedLine line) {
        return connection.preparedQuery("SELECT bucket_no, stock - lock_stock, sku_version FROM sku_bucket "
                + "WHERE sku_id = ? ORDER BY bucket_no FOR UPDATE")
                .execute(Tuple.of(line.skuId()))
                .chain(rows -> {
                    List<int[]> free = new ArrayList<>();
                    for (Row row : rows) {
                        if (row.getInteger(2) != line.version()) {
                            throw new NotLocked(line.skuId(), ALL_BUCKETS);
                        }
                        free.add(new int[] {row.getInteger(0), row.getInteger(1)});
                    }
                    List<BucketShare> shares = take(free, line.quantity());
                    emptyBuckets.seen(line.skuId(), emptyAfter(free));
                    if (shares == null) {
                        throw new NotLocked(line.skuId(), ALL_BUCKETS);
                    }
                    return reserve(connection, line.skuId(), shares).replaceWith(shares);
                });
    }

    /** The shares for {@code quantity} units (and {@code free} less them), or null when all together lack them. */
    private static List<BucketShare> take(List<int[]> free, int quantity) {
        for (int[] bucket : free) {
            if (bucket[1] >= quantity) {
                bucket[1] -= quantity;
                return List.of(new BucketShare(bucket[0], quantity));
            }
        }
        if (free.stream().mapToInt(bucket -> bucket[1]).sum() < quantity) {
            return null;
        }
        List<BucketShare> shares = new ArrayList<>();
        int missing = quantity;
        for (int[] bucket : free) {
            int units = Math.min(bucket[1], missing);
            if (units > 0) {
                shares.add(new BucketShare(bucket[0], units));
                bucket[1] -= units;
                missing -= units;
            }
        }
        return shares;
    }

    private static long emptyAfter(List<int[]> free) {
        long mask = 0;
        for (int[] bucket : free) {
            if (bucket[1] <= 0) {
                mask |= 1L << bucket[0];
            }
        }
        return mask;
    }

    private static Uni<RowSet<Row>> reserve(SqlConnection connection, long skuId, List<BucketShare> shares) {
        Tuple params = Tuple.from(BucketShare.unitsByBucket(shares)).addLong(skuId);
        shares.forEach(share -> params.addInteger(share.bucket()));
        return connection.preparedQuery("UPDATE sku_bucket SET lock_stock = lock_stock + " + BucketShare.caseByBucket(shares)
                + " WHERE sku_id = ? AND bucket_no IN (" + Sql.placeholders(shares.size()) + ")")
                .execute(params)
                .invoke(rows -> {
                    if (rows.rowCount() != shares.size()) {
                        throw new IllegalStateException("Buckets of SKU " + skuId + " changed under their locks");
                    }
                });
    }
}
