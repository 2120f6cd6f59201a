package com.shop.orders.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

import com.shop.orders.harness.ServiceStack;

/** SKUs the benchmark orders from, written straight into the service's (migrated) database in batches. */
final class Catalog {

    /** SKUs from..to, inclusive. */
    record Range(long from, long to) {
        int size() {
            return (int) (to - from + 1);
        }

        String sqlList() {
            return from + " AND " + to;
        }
    }

    static final String PRICE = "10.00";

    private final ServiceStack stack;
    private final AtomicLong next = new AtomicLong(1);

    Catalog(ServiceStack stack) {
        this.stack = stack;
    }

    /** Limits the SKU to this many units per member, as PUT /api/admin/skus/{id}/limit does (a new SKU: nothing cached). */
    void limit(long skuId, int perMember) {
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(
                "UPDATE sku SET per_member_limit = ? WHERE id = ?")) {
            st.setInt(1, perMember);
            st.setLong(2, skuId);
            st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Lays the SKU's stock out in this many buckets through the service's admin API (PUT /api/admin/skus/{id}/buckets:
     * the spreading of its units is the service's own).
     */
    void buckets(long skuId, int buckets) {
        stack.setBuckets(skuId, buckets);
    }

    Range create(int count, int stock) {
        long from = next.getAndAdd(count);
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(
                "INSERT INTO sku (id, code, name, price, stock, lock_stock) VALUES (?, ?, ?, " + PRICE + ", ?, 0)")) {
            c.setAutoCommit(false);
            for (long id = from; id < from + count; id++) {
                st.setLong(1, id);
                st.setString(2, "B-" + id);
                st.setString(3, "Bench SKU " + id);
                st.setInt(4, stock);
                st.addBatch();
            }
            st.executeBatch();
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        // For the invariants' stock check (the soak's), which holds each SKU to the stock it was created with.
        for (long id = from; id < from + count; id++) {
            stack.rememberInitialStock(id, stock);
        }
        return new Range(from, from + count - 1);
    }
}
