package com.shop.orders.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.shop.orders.harness.ServiceStack;

/**
 * The database's limit for placing orders: MariaDB running exactly the service's placement transaction
 * (OrderPlacement: order insert, item insert, the member's purchase allowances, then the conditional stock update
 * of StockLocks, on the SKU row or, for a SKU in buckets, on one bucket row, then COMMIT), as one of 2,000 members,
 * driven by mysqlslap against the benchmark's own MariaDB, in a schema of its own with the service's tables
 * (copied from the migrated database with SHOW CREATE TABLE). The SKU is picked into a variable first:
 * {@code WHERE id = FLOOR(RAND()*N)} would be evaluated per row and scan the table.
 */
final class PlacementLimit {

    /** One mysqlslap run: transactions per second at a concurrency. */
    record Run(int concurrency, long transactions, double seconds) {
        double perSecond() {
            return transactions / seconds;
        }
    }

    private static final int STATEMENTS_PER_ORDER = 8;
    /** The reservation on a SKU without buckets: its row, at the price and limit the order was computed with. */
    private static final String SKU_RESERVATION = "UPDATE sku SET lock_stock = lock_stock + 1 WHERE id = @sku "
            + "AND price = 10.00 AND per_member_limit <=> NULL AND stock - lock_stock >= 1";
    private static final Pattern SECONDS = Pattern.compile("Average number of seconds to run all queries: ([0-9.]+)");

    private final ServiceStack stack;
    private final String createTables;

    PlacementLimit(ServiceStack stack) {
        this.stack = stack;
        this.createTables = serviceTables(stack);
    }

    /** Orders spread over SKUs 1..skus (stock enough for the run). */
    Run spread(int skus, int concurrency, long transactions) {
        return run(skuRows(skus), order("SET @sku = FLOOR(1 + RAND() * " + skus + ")", "NULL", "NULL",
                SKU_RESERVATION), concurrency, transactions);
    }

    /** Every order on SKU 1: the hot row. */
    Run hot(int concurrency, long transactions) {
        return run(skuRows(1), order("SET @sku = 1", "NULL", "NULL", SKU_RESERVATION), concurrency, transactions);
    }

    /**
     * Every order on SKU 1 with its stock in {@code buckets} buckets, each order reserving from one bucket at
     * random, as placement does for a SKU in buckets (StockLocks): the item carries the bucket it took from and the
     * layout, and the reservation is conditional on the SKU's version instead of its price and limit; the SKU row
     * is not touched. The bucket is picked into a variable first, like the SKU: {@code bucket_no = FLOOR(RAND()*n)}
     * in the UPDATE would be evaluated per row, examining (and locking) every bucket of the SKU.
     */
    Run bucketed(int buckets, int concurrency, long transactions) {
        String rows = "INSERT INTO sku (id, code, name, price, stock, lock_stock, buckets) "
                + "VALUES (1, 'L-1', 'Limit SKU 1', 10.00, 0, 0, " + buckets + ");"
                + "INSERT INTO sku_bucket (sku_id, bucket_no, stock, lock_stock, sku_version, layout) "
                + "SELECT 1, seq, 100000000, 0, 0, 0 FROM seq_0_to_" + (buckets - 1);
        return run(rows, order("SET @sku = 1, @bucket = FLOOR(RAND() * " + buckets + ")",
                "CONCAT(@bucket, ':1')", "0", "UPDATE sku_bucket SET lock_stock = lock_stock + 1 WHERE sku_id = @sku "
                        + "AND bucket_no = @bucket AND sku_version = 0 AND stock - lock_stock >= 1"),
                concurrency, transactions);
    }

    private static String skuRows(int skus) {
        return "INSERT INTO sku (id, code, name, price, stock, lock_stock) "
                + "SELECT seq, CONCAT('L-', seq), CONCAT('Limit SKU ', seq), 10.00, 100000000, 0 FROM seq_1_to_" + skus;
    }

    /** The placement transaction ({@value #STATEMENTS_PER_ORDER} statements) with this pick and this reservation. */
    private static String order(String pick, String stockBuckets, String stockLayout, String reservation) {
        return String.join(";", pick,
                "SET @member = CONCAT('member-', FLOOR(1 + RAND() * 2000))",
                "START TRANSACTION",
                "INSERT INTO orders (order_no, member_id, status, total_amount, pay_deadline, created_at, "
                        + "idempotency_key, request_hash) VALUES (UUID_SHORT(), @member, 'PENDING_PAYMENT', 10.00, "
                        + "NOW(6) + INTERVAL 5 MINUTE, NOW(6), NULL, NULL)",
                "INSERT INTO order_item (order_id, sku_id, sku_name, unit_price, quantity, stock_buckets, stock_layout) "
                        + "VALUES (LAST_INSERT_ID(), @sku, 'Limit SKU', 10.00, 1, " + stockBuckets + ", "
                        + stockLayout + ")",
                "INSERT INTO purchase_allowance (member_id, sku_id, used, cap) VALUES (@member, 0, 1, NULL), "
                        + "(@member, @sku, 1, NULL) ON DUPLICATE KEY UPDATE used = used + VALUES(used), cap = VALUES(cap)",
                reservation,
                "COMMIT");
    }

    private Run run(String rows, String query, int concurrency, long transactions) {
        long perClient = Math.max(5, transactions / concurrency);
        String create = createTables + ";" + rows;
        List<String> command = List.of("mysqlslap", "--host=127.0.0.1", "--port=" + stack.mariaDb().port(),
                "--protocol=tcp", "--user=root", "--create-schema=placement_limit", "--delimiter=;",
                "--create=" + create, "--query=" + query, "--concurrency=" + concurrency, "--iterations=1",
                "--number-of-queries=" + perClient * concurrency * STATEMENTS_PER_ORDER);
        String output = Command.run(command, Map.of(), null, Duration.ofMinutes(5)).requireSuccess("mysqlslap").output();
        Matcher m = SECONDS.matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("mysqlslap printed no time: " + Command.tail(output));
        }
        return new Run(concurrency, perClient * concurrency, Math.max(0.001, Double.parseDouble(m.group(1))));
    }

    private static String serviceTables(ServiceStack stack) {
        List<String> ddl = new ArrayList<>();
        try (Connection c = stack.connect(); Statement st = c.createStatement()) {
            for (String table : List.of("sku", "sku_bucket", "orders", "order_item", "purchase_allowance")) {
                try (ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + table)) {
                    rs.next();
                    ddl.add(rs.getString(2).replace('\n', ' '));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return String.join(";", ddl);
    }
}
