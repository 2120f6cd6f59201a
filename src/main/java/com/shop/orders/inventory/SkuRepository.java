package com.shop.orders.inventory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.sql.Sql;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/**
 * Stock moves as single conditional UPDATEs, in the caller's transaction, so that concurrent orders can never
 * oversell: the database checks availability and changes it in one statement (no read-modify-write). Reservations
 * for new orders are made by {@link StockLocks} on placement's own connection; these move them afterwards. Each
 * answers whether its rows matched: a move aimed at the wrong place (a layout that changed since) matches none.
 */
@ApplicationScoped
public class SkuRepository implements PanacheRepositoryBase<Sku, Long> {

    /** What happens to reserved units. */
    enum Move {
        /** Back to available: the order will not be paid. */
        RELEASE,
        /** Sold: off the stock on hand. */
        DEDUCT;

        /** The SET clause moving {@code units} (an SQL expression), with its parameters appended to {@code params}. */
        String set(String units, List<Object> unitParams, List<Object> params) {
            if (this == RELEASE) {
                params.addAll(unitParams);
                return "lock_stock = lock_stock - " + units;
            }
            params.addAll(unitParams);
            params.addAll(unitParams);
            return "stock = stock - " + units + ", lock_stock = lock_stock - " + units;
        }
    }

    public Uni<List<Sku>> findByIds(Collection<Long> ids) {
        return list("id in ?1", ids);
    }

    public Uni<List<Sku>> listAll() {
        return list("order by id");
    }

    /** The SKU's bucket layout (see V6), or null for a SKU that has no buckets now. */
    Uni<Integer> layoutOf(long skuId) {
        return Panache.getSession()
                .chain(session -> session.createNativeQuery("SELECT layout FROM sku WHERE id = ? AND buckets > 1",
                        Integer.class).setParameter(1, skuId).getResultList())
                .map(rows -> rows.isEmpty() ? null : rows.get(0));
    }

    /** Moves units held on the row of a SKU without buckets. */
    Uni<Boolean> moveOnSkuRow(Move move, long skuId, int quantity) {
        List<Object> params = new ArrayList<>();
        String set = move.set("?", List.of(quantity), params);
        params.addAll(List.of(skuId, quantity));
        return execute("UPDATE sku SET " + set + " WHERE id = ? AND lock_stock >= ?", params).map(rows -> rows == 1);
    }

    /** Moves units held in bucket 0, where laying out a SKU's buckets puts every pending hold. */
    Uni<Boolean> moveInBucketZero(Move move, long skuId, int quantity) {
        List<Object> params = new ArrayList<>();
        String set = move.set("?", List.of(quantity), params);
        params.addAll(List.of(skuId, quantity));
        return execute("UPDATE sku_bucket SET " + set + " WHERE sku_id = ? AND bucket_no = 0 AND lock_stock >= ?",
                params).map(rows -> rows == 1);
    }

    /**
     * Moves an item's shares out of its buckets, if the SKU's buckets are still laid out as when it was placed
     * (false: they were laid out since, and its units are in bucket 0). One statement: the rows lock in ascending
     * bucket order.
     */
    Uni<Boolean> moveShares(Move move, long skuId, int layout, List<BucketShare> shares) {
        String units = BucketShare.caseByBucket(shares);
        List<Object> unitParams = BucketShare.unitsByBucket(shares);
        List<Object> params = new ArrayList<>();
        String set = move.set(units, unitParams, params);
        params.add(skuId);
        params.add(layout);
        shares.forEach(share -> params.add(share.bucket()));
        params.addAll(unitParams);
        return execute("UPDATE sku_bucket SET " + set + " WHERE sku_id = ? AND layout = ? AND bucket_no IN ("
                + Sql.placeholders(shares.size()) + ") AND lock_stock >= " + units, params)
                .map(rows -> {
                    if (rows != 0 && rows != shares.size()) {
                        throw new IllegalStateException("SKU " + skuId + ": " + rows + " of " + shares.size()
                                + " buckets held an item's units");
                    }
                    return rows == shares.size();
                });
    }

    /**
     * Puts sold units back on hand (a refund's returned goods) in a bucketed SKU's buckets, spread evenly (the
     * remainder from a random bucket on); false for a SKU without buckets (laid out as one since the caller looked),
     * which {@link #restockOnSkuRow} takes.
     */
    Uni<Boolean> restockInBuckets(long skuId, int quantity) {
        return execute("UPDATE sku_bucket b JOIN sku s ON s.id = b.sku_id SET b.stock = b.stock "
                + "+ FLOOR(? / s.buckets) + IF(MOD(b.bucket_no + ?, s.buckets) < MOD(?, s.buckets), 1, 0) "
                + "WHERE b.sku_id = ? AND s.buckets > 1", List.of(quantity,
                        ThreadLocalRandom.current().nextInt(SkuChanges.MAX_BUCKETS), quantity, skuId))
                .map(rows -> rows > 0);
    }

    /** Puts sold units back on the row of a SKU without buckets. */
    Uni<Boolean> restockOnSkuRow(long skuId, int quantity) {
        return execute("UPDATE sku SET stock = stock + ? WHERE id = ? AND buckets = 1", List.of(quantity, skuId))
                .map(rows -> rows == 1);
    }

    private static Uni<Integer> execute(String sql, List<Object> params) {
        return Panache.getSession().chain(session -> {
            var query = session.createNativeQuery(sql);
            for (int i = 0; i < params.size(); i++) {
                query.setParameter(i + 1, params.get(i));
            }
            return query.executeUpdate();
        });
    }
}
