package com.shop.orders.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.shop.orders.harness.Invariants;
import com.shop.orders.harness.ServiceStack;

/** What the service's database says about the benchmark's orders, by the SKUs they were placed on. */
final class OrderFacts {

    /** One order of a SKU range, with the times that matter (UTC; null when not reached). */
    record OrderRow(long id, String orderNo, String status, BigDecimal total, Instant createdAt, Instant deadline,
                    Instant paidAt, Instant closedAt) {
    }

    /** A SKU's stock as stored, and what its orders hold. */
    record StockRow(long skuId, int stock, int lockStock, long pendingQuantity, long paidQuantity) {
    }

    private final ServiceStack stack;

    OrderFacts(ServiceStack stack) {
        this.stack = stack;
    }

    private static final String OF_RANGE = " FROM orders o WHERE EXISTS (SELECT 1 FROM order_item i "
            + "WHERE i.order_id = o.id AND i.sku_id BETWEEN ? AND ?)";

    long count(Catalog.Range skus, String status) {
        String sql = "SELECT COUNT(*)" + OF_RANGE + (status == null ? "" : " AND o.status = ?");
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, skus.from());
            st.setLong(2, skus.to());
            if (status != null) {
                st.setString(3, status);
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Orders waiting for payment, whatever their SKU. */
    long pendingAll() {
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT COUNT(*) FROM orders WHERE status = 'PENDING_PAYMENT'"); ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    long pending(Catalog.Range skus) {
        return count(skus, "PENDING_PAYMENT");
    }

    List<OrderRow> orders(Catalog.Range skus) {
        String sql = "SELECT o.id, o.order_no, o.status, o.total_amount, o.created_at, o.pay_deadline, o.paid_at, "
                + "o.closed_at" + OF_RANGE + " ORDER BY o.id";
        List<OrderRow> rows = new ArrayList<>();
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, skus.from());
            st.setLong(2, skus.to());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    rows.add(new OrderRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getBigDecimal(4),
                            utc(rs, 5), utc(rs, 6), utc(rs, 7), utc(rs, 8)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    /** The refunds of the orders of a SKU range, by status (PENDING, SUCCEEDED, FAILED, ABNORMAL). */
    Map<String, Long> refunds(Catalog.Range skus) {
        String sql = "SELECT r.status, COUNT(*) FROM refund r WHERE EXISTS (SELECT 1 FROM order_item i "
                + "WHERE i.order_id = r.order_id AND i.sku_id BETWEEN ? AND ?) GROUP BY r.status";
        Map<String, Long> byStatus = new TreeMap<>();
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, skus.from());
            st.setLong(2, skus.to());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    byStatus.put(rs.getString(1), rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return byStatus;
    }

    /** The SKU's stock and lock_stock (its row's plus its buckets': a SKU in buckets holds none on its row). */
    StockRow stock(long skuId) {
        String sql = "SELECT s.stock + COALESCE((SELECT SUM(b.stock) FROM sku_bucket b WHERE b.sku_id = s.id), 0), "
                + "s.lock_stock + COALESCE((SELECT SUM(b.lock_stock) FROM sku_bucket b WHERE b.sku_id = s.id), 0), "
                + "(SELECT COALESCE(SUM(i.quantity), 0) FROM order_item i JOIN orders o ON o.id = i.order_id "
                + " WHERE i.sku_id = s.id AND o.status = 'PENDING_PAYMENT'), "
                + "(SELECT COALESCE(SUM(i.quantity), 0) FROM order_item i JOIN orders o ON o.id = i.order_id "
                + " WHERE i.sku_id = s.id AND o.status = 'PAID') FROM sku s WHERE s.id = ?";
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, skuId);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return new StockRow(skuId, rs.getInt(1), rs.getInt(2), rs.getLong(3), rs.getLong(4));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The per-bucket invariant's violations for the SKU ({@link Invariants#buckets}), in one consistent read. */
    List<String> bucketViolations(long skuId) {
        try (Connection c = stack.connect()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (java.sql.Statement st = c.createStatement()) {
                st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
                return Invariants.buckets(c, skuId);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Members holding more than {@code limit} units of the SKU in pending and paid orders. */
    long membersOver(long skuId, int limit) {
        String sql = "SELECT COUNT(*) FROM (SELECT o.member_id FROM orders o JOIN order_item i ON i.order_id = o.id "
                + "WHERE i.sku_id = ? AND o.status IN ('PENDING_PAYMENT', 'PAID') GROUP BY o.member_id "
                + "HAVING SUM(i.quantity) > ?) over_limit";
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, skuId);
            st.setInt(2, limit);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Transactions MariaDB has ended (Com_commit + Com_rollback), for a phase's transactions per request. */
    long transactionsEnded() {
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS "
                        + "WHERE VARIABLE_NAME IN ('COM_COMMIT', 'COM_ROLLBACK')"); ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Seconds between the first and the last order placed on the SKU (by created_at), 0 for fewer than two. */
    double placementSpan(long skuId) {
        String sql = "SELECT TIMESTAMPDIFF(MICROSECOND, MIN(o.created_at), MAX(o.created_at)) FROM orders o "
                + "JOIN order_item i ON i.order_id = o.id WHERE i.sku_id = ?";
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setLong(1, skuId);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1) / 1e6;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Instant utc(ResultSet rs, int column) throws SQLException {
        Timestamp ts = rs.getTimestamp(column);
        return ts == null ? null : ts.toLocalDateTime().toInstant(java.time.ZoneOffset.UTC);
    }
}
