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

    /** One stock bucket of a SKU with buckets (sku_bucket). */
    public record BucketRow(int bucketNo, int stock, int lockStock) {

        public int free() {
            return stock - lockStock;
        }
    }

    /** A SKU's total stock and lock: its row's plus its buckets' (read in one statement). */
    public static SkuRow sku(long id) {
        return query("SELECT s.stock + COALESCE(SUM(b.stock), 0), s.lock_stock + COALESCE(SUM(b.lock_stock), 0) "
                + "FROM sku s LEFT JOIN sku_bucket b ON b.sku_id = s.id WHERE s.id = ? GROUP BY s.id",
                rs -> new SkuRow(rs.getInt(1), rs.getInt(2)), id).get(0);
    }

    /** The SKU's bucket rows in bucket order; none for a SKU without buckets. */
    public static List<BucketRow> buckets(long skuId) {
        return query("SELECT bucket_no, stock, lock_stock FROM sku_bucket WHERE sku_id = ? ORDER BY bucket_no",
                rs -> new BucketRow(rs.getInt(1), rs.getInt(2), rs.getInt(3)), skuId);
    }

    public static String orderStatus(long orderId) {
        return scalar("SELECT status FROM orders WHERE id = ?", orderId);
    }

    public static void awaitOrderStatus(long orderId, String status, java.time.Duration atMost) {
        org.awaitility.Awaitility.await().atMost(atMost).until(() -> status.equals(orderStatus(orderId)));
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
     * the units succeeded refunds returned to stock. A SKU's stock and lock are its row's plus its buckets'.
     */
    public static void assertStockInvariant(long skuId, int initialStock) {
        List<Map<String, Long>> rows = query("""
                SELECT s.stock + COALESCE((SELECT SUM(b.stock) FROM sku_bucket b WHERE b.sku_id = s.id), 0),
                  s.lock_stock + COALESCE((SELECT SUM(b.lock_stock) FROM sku_bucket b WHERE b.sku_id = s.id), 0),
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

    /**
     * The buckets' invariant, read in one consistent snapshot. A SKU without buckets (buckets = 1) has no bucket
     * rows and holds every pending unit on its row. A SKU with n buckets has rows 0..n-1 exactly, none on its own
     * row, no bucket negative or locking more than it has, every row at the SKU's version and layout, and in bucket
     * k the units PENDING_PAYMENT items placed under the SKU's current layout reserved from k (their stock_buckets,
     * ascending "bucket:units" pairs adding up to the quantity), plus in bucket 0 the whole quantity of every other
     * PENDING_PAYMENT item (placed before the buckets were last laid out, which moved its hold there).
     */
    public static void assertBucketInvariant(long skuId) {
        List<String> broken = bucketViolations(skuId);
        if (!broken.isEmpty()) {
            throw new AssertionError("Bucket invariant broken for SKU " + skuId + ": " + broken);
        }
    }

    /** What {@link #assertBucketInvariant} finds wrong; empty when it holds. */
    public static List<String> bucketViolations(long skuId) {
        record Sku(int buckets, int version, int layout, int stock, int lock) {
        }
        record Bucket(int no, int stock, int lock, int version, int layout) {
        }
        record Held(long orderId, int quantity, String buckets, Integer layout) {
        }
        Sku sku;
        List<Bucket> rows;
        List<Held> held;
        try (Connection c = connect(); var st = c.createStatement()) {
            st.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
            try {
                sku = query(c, "SELECT buckets, version, layout, stock, lock_stock FROM sku WHERE id = ?",
                        rs -> new Sku(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4), rs.getInt(5)), skuId).get(0);
                rows = query(c, "SELECT bucket_no, stock, lock_stock, sku_version, layout FROM sku_bucket "
                        + "WHERE sku_id = ? ORDER BY bucket_no", rs -> new Bucket(rs.getInt(1), rs.getInt(2),
                                rs.getInt(3), rs.getInt(4), rs.getInt(5)), skuId);
                held = query(c, "SELECT i.order_id, i.quantity, i.stock_buckets, i.stock_layout FROM order_item i "
                        + "JOIN orders o ON o.id = i.order_id WHERE i.sku_id = ? AND o.status = 'PENDING_PAYMENT'",
                        rs -> new Held(rs.getLong(1), rs.getInt(2), rs.getString(3), (Integer) rs.getObject(4)), skuId);
            } finally {
                st.execute("COMMIT");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        List<String> broken = new ArrayList<>();
        if (sku.buckets() < 1 || sku.buckets() > 64) {
            broken.add("buckets = " + sku.buckets());
        }
        if (sku.stock() < 0 || sku.lock() < 0 || sku.lock() > sku.stock()) {
            broken.add("SKU row: stock " + sku.stock() + ", lock " + sku.lock());
        }
        long pending = held.stream().mapToLong(Held::quantity).sum();
        if (sku.buckets() == 1) {
            if (!rows.isEmpty()) {
                broken.add("no buckets, yet bucket rows " + rows);
            }
            if (sku.lock() != pending) {
                broken.add("no buckets: the row locks " + sku.lock() + ", pending orders hold " + pending);
            }
            return broken;
        }
        if (sku.stock() != 0 || sku.lock() != 0) {
            broken.add(sku.buckets() + " buckets, yet the SKU row has stock " + sku.stock() + ", lock " + sku.lock());
        }
        List<Integer> numbers = rows.stream().map(Bucket::no).toList();
        List<Integer> wanted = java.util.stream.IntStream.range(0, sku.buckets()).boxed().toList();
        if (!numbers.equals(wanted)) {
            broken.add(sku.buckets() + " buckets, yet bucket rows " + numbers);
        }
        long[] expected = new long[Math.max(sku.buckets(), numbers.stream().mapToInt(n -> n + 1).max().orElse(0))];
        for (Held item : held) {
            if (item.layout() == null || item.layout() != sku.layout()) {
                expected[0] += item.quantity();
                continue;
            }
            List<int[]> shares = parseShares(item.buckets());
            if (shares == null) {
                broken.add("order " + item.orderId() + " placed under layout " + item.layout() + ": stock_buckets '"
                        + item.buckets() + "' is not ascending bucket:units pairs within 0.." + (sku.buckets() - 1));
                continue;
            }
            int units = 0;
            int previous = -1;
            for (int[] share : shares) {
                if (share[0] <= previous || share[0] >= sku.buckets() || share[1] <= 0) {
                    broken.add("order " + item.orderId() + ": stock_buckets '" + item.buckets() + "' out of order or range");
                    break;
                }
                previous = share[0];
                units += share[1];
                expected[share[0]] += share[1];
            }
            if (units != item.quantity()) {
                broken.add("order " + item.orderId() + ": stock_buckets '" + item.buckets() + "' holds " + units
                        + " units of a quantity of " + item.quantity());
            }
        }
        for (Bucket bucket : rows) {
            if (bucket.stock() < 0 || bucket.lock() < 0 || bucket.lock() > bucket.stock()) {
                broken.add("bucket " + bucket.no() + ": stock " + bucket.stock() + ", lock " + bucket.lock());
            }
            if (bucket.no() >= 0 && bucket.no() < expected.length && bucket.lock() != expected[bucket.no()]) {
                broken.add("bucket " + bucket.no() + " locks " + bucket.lock() + ", pending orders hold "
                        + expected[bucket.no()] + " in it");
            }
            if (bucket.version() != sku.version() || bucket.layout() != sku.layout()) {
                broken.add("bucket " + bucket.no() + " at version " + bucket.version() + ", layout " + bucket.layout()
                        + "; the SKU at version " + sku.version() + ", layout " + sku.layout());
            }
        }
        return broken;
    }

    /** "bucket:units" pairs, comma-separated, as [bucket, units]; null when it is not that. */
    public static List<int[]> parseShares(String text) {
        if (text == null || !text.matches("\\d+:\\d+(,\\d+:\\d+)*")) {
            return null;
        }
        List<int[]> shares = new ArrayList<>();
        for (String pair : text.split(",")) {
            String[] parts = pair.split(":");
            shares.add(new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])});
        }
        return shares;
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

    /** InnoDB's count of deadlocks since the server started (every database of it). */
    public static long deadlocks() {
        return Long.parseLong(TestDb.<String> scalar(
                "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_DEADLOCKS'"));
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
        try (Connection c = connect()) {
            return query(c, sql, mapper, params);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> List<T> query(Connection c, String sql, RowMapper<T> mapper, Object... params)
            throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            bind(st, params);
            try (ResultSet rs = st.executeQuery()) {
                List<T> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(mapper.map(rs));
                }
                return rows;
            }
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
