package com.shop.orders.testsupport;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.microprofile.config.ConfigProvider;

/** Plain JDBC to the test database: sets up SKUs and checks state independently of the application. */
public final class TestDb {

    private static final AtomicLong NEXT_SKU = new AtomicLong(System.currentTimeMillis() % 1_000_000 * 1000 + 1000);

    private TestDb() {
    }

    public record SkuRow(int stock, int lockStock) {
    }

    /** A fresh SKU, so that tests do not disturb each other's stock. */
    public static long newSku(int stock, String price) {
        long id = NEXT_SKU.incrementAndGet();
        update("INSERT INTO sku (id, code, name, price, stock, lock_stock) VALUES (?, ?, ?, ?, ?, 0)",
                id, "T-" + id, "Test SKU " + id, new BigDecimal(price), stock);
        return id;
    }

    public static SkuRow sku(long id) {
        return query("SELECT stock, lock_stock FROM sku WHERE id = ?", rs -> new SkuRow(rs.getInt(1), rs.getInt(2)), id)
                .get(0);
    }

    public static String orderStatus(long orderId) {
        return scalar("SELECT status FROM orders WHERE id = ?", orderId);
    }

    public static void awaitOrderStatus(long orderId, String status, java.time.Duration atMost) {
        org.awaitility.Awaitility.await().atMost(atMost).pollInterval(java.time.Duration.ofMillis(200))
                .until(() -> status.equals(orderStatus(orderId)));
    }

    public static <T> T scalar(String sql, Object... params) {
        List<Object> rows = query(sql, rs -> rs.getObject(1), params);
        @SuppressWarnings("unchecked")
        T value = rows.isEmpty() ? null : (T) rows.get(0);
        return value;
    }

    public static long count(String sql, Object... params) {
        Number n = scalar(sql, params);
        return n == null ? 0 : n.longValue();
    }

    /**
     * design.md's stock invariant, read in one statement (one consistent snapshot):
     * lock_stock = sum of PENDING quantities and initialStock - stock = sum of PAID (and REFUNDED) quantities less
     * the units succeeded refunds returned to stock.
     */
    public static void assertStockInvariant(long skuId, int initialStock) {
        List<Map<String, Long>> rows = query("""
                SELECT s.stock, s.lock_stock,
                  (SELECT COALESCE(SUM(i.quantity), 0) FROM order_item i JOIN orders o ON o.id = i.order_id
                    WHERE i.sku_id = s.id AND o.status = 'PENDING_PAYMENT') AS pending,
                  (SELECT COALESCE(SUM(i.quantity), 0) FROM order_item i JOIN orders o ON o.id = i.order_id
                    WHERE i.sku_id = s.id AND o.status IN ('PAID', 'REFUNDED'))
                  - (SELECT COALESCE(SUM(l.quantity), 0) FROM refund_restock l JOIN refund r ON r.id = l.refund_id
                    WHERE l.sku_id = s.id AND r.status = 'SUCCEEDED') AS paid
                FROM sku s WHERE s.id = ?""",
                rs -> Map.of("stock", rs.getLong(1), "lock", rs.getLong(2), "pending", rs.getLong(3),
                        "paid", rs.getLong(4)),
                skuId);
        Map<String, Long> row = rows.get(0);
        if (row.get("lock") != row.get("pending").longValue() || initialStock - row.get("stock") != row.get("paid")
                || row.get("stock") < 0 || row.get("lock") < 0) {
            throw new AssertionError("Stock invariant broken for SKU " + skuId + ": " + row);
        }
    }

    /** {@link AllowanceInvariant} for one member; returns the member's pending orders. */
    public static long assertAllowanceInvariant(String memberId) {
        List<String> broken;
        try (Connection c = connect()) {
            broken = AllowanceInvariant.violations(c, memberId);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        if (!broken.isEmpty()) {
            throw new AssertionError("Purchase allowances do not match the orders: " + broken);
        }
        return count("SELECT COUNT(*) FROM orders WHERE member_id = ? AND status = 'PENDING_PAYMENT'", memberId);
    }

    public static int update(String sql, Object... params) {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(sql)) {
            bind(st, params);
            return st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    public static <T> List<T> query(String sql, RowMapper<T> mapper, Object... params) {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(sql)) {
            bind(st, params);
            try (ResultSet rs = st.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(mapper.map(rs));
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void bind(PreparedStatement st, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            st.setObject(i + 1, params[i]);
        }
    }

    /** The application's database: the test profile's, or the packaged service's in integration tests. */
    private static Connection connect() throws SQLException {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(
                System.getProperty("test.jdbc.url", config.getValue("quarkus.datasource.jdbc.url", String.class)),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
    }
}
