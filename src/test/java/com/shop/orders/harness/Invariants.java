package com.shop.orders.harness;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import com.shop.orders.testsupport.AllowanceInvariant;
import com.shop.orders.testsupport.PaidEvents;

/**
 * design.md's invariants for one set of orders and SKUs, and the purchase limits' for every member, checked by
 * SQL against the services' database and against both wallets' sandboxes (Alipay's and WeChat Pay's trades, by
 * the payment rows' channel and out_trade_no) and the "order paid" events seen on the broker. Every finding is a
 * line in {@link Result#violations()}. Public for the benchmark: its per-bucket check ({@link #buckets}) and its
 * soak's ({@link #violations}).
 */
public final class Invariants {

    /** @param refunded what the order's accepted trade gave back (payment.refund_amount), null for none */
    record OrderRow(long id, String orderNo, String status, String closeReason, BigDecimal amount, boolean paidAt,
                    boolean closedAt, Long latenessMicros, int outboxRows, int outboxUnpublished, BigDecimal refunded) {
    }

    /**
     * One of an order's trades as the service recorded it: its payment row (status, accepted, paid_amount, whether
     * its QR code was stored, that is offered) and the refunds of its out_trade_no by status.
     */
    record TradeRow(String channel, String outTradeNo, String status, boolean accepted, BigDecimal paid,
                    boolean offered, BigDecimal refunded, int refunds) {

        /** Paid less refunded: the buyer's money the service holds on this trade by its own books. */
        BigDecimal kept() {
            return (paid == null ? BigDecimal.ZERO : paid).subtract(refunded);
        }
    }

    /** A trade here (null: no payment row) and at its wallet (null: the wallet has none under that number). */
    private record Trade(String channel, String outTradeNo, TradeRow here, WalletTrade wallet) {

        boolean accepted() {
            return here != null && here.accepted();
        }

        boolean offered() {
            return here != null && here.offered();
        }

        BigDecimal keptHere() {
            return here == null ? BigDecimal.ZERO : here.kept();
        }

        BigDecimal keptAtWallet() {
            return wallet == null ? BigDecimal.ZERO : wallet.kept();
        }

        int refundsHere() {
            return here == null ? 0 : here.refunds();
        }

        int refundsAtWallet() {
            return wallet == null ? 0 : wallet.refunds();
        }

        @Override
        public String toString() {
            return wallet != null ? wallet.toString() : channel + " " + outTradeNo + " (no trade at the wallet)";
        }
    }

    /**
     * @param keptHere      paid less refunded by the service's books, over every trade of the orders
     * @param keptAtWallets the same at both wallets' sandboxes
     * @param refunds       trades that took money but did not pay their order, refunded in full
     */
    record Result(List<String> violations, Map<String, Integer> statuses, List<Long> latenessMillis,
                  long eventDeliveries, long eventDuplicates, int refunds, int unofferedQrCodes, BigDecimal keptHere,
                  BigDecimal keptAtWallets) {

        long latenessPercentile(double p) {
            if (latenessMillis.isEmpty()) {
                return 0;
            }
            List<Long> sorted = latenessMillis.stream().sorted().toList();
            int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
        }

        long latenessMax() {
            return latenessMillis.stream().mapToLong(Long::longValue).max().orElse(0);
        }
    }

    private Invariants() {
    }

    /**
     * Every order decided once, its stock and events as its status says, and its money: a PAID (or REFUNDED) order
     * has exactly one accepted trade, paid at its wallet for the order's amount; a CLOSED one none; every other
     * trade is unpaid at its wallet or refunded there in full, and a closed order's offered code is unpayable; on
     * every trade the money here (paid less SUCCEEDED refunds) equals the money at its wallet, in as many refunds.
     */
    static Result check(ServiceStack stack, Collection<OrderStream.Placed> orders, Collection<Long> skus,
                        PaidEvents events, Duration latenessBound) {
        return checkIds(stack, orders.stream().map(OrderStream.Placed::id).toList(), skus, events, latenessBound);
    }

    /** {@link #check} of orders known by their ids, from outside the harness (the benchmark's soak): its violations. */
    public static List<String> violations(ServiceStack stack, List<Long> orderIds, Collection<Long> skus,
                                          PaidEvents events, Duration latenessBound) {
        return checkIds(stack, orderIds, skus, events, latenessBound).violations();
    }

    private static Result checkIds(ServiceStack stack, List<Long> ids, Collection<Long> skus, PaidEvents events,
                                   Duration latenessBound) {
        List<String> violations = new ArrayList<>();
        Map<String, Integer> statuses = new HashMap<>();
        List<Long> lateness = new ArrayList<>();
        Map<String, Long> deliveries = events.countsByKey();
        long eventDeliveries = 0;
        long duplicates = 0;
        int refunds = 0;
        int unofferedQrCodes = 0;
        BigDecimal keptHere = BigDecimal.ZERO;
        BigDecimal keptAtWallets = BigDecimal.ZERO;
        List<OrderRow> rows = orders(stack, ids);
        Map<Long, List<TradeRow>> tradeRows = trades(stack, ids);
        if (rows.size() != ids.size()) {
            violations.add("orders placed " + ids.size() + ", found in the database " + rows.size());
        }
        for (OrderRow o : rows) {
            String label = o.orderNo() + " (" + o.status() + (o.closeReason() == null ? "" : "/" + o.closeReason()) + ")";
            statuses.merge(o.status() + (o.closeReason() == null ? "" : "/" + o.closeReason()), 1, Integer::sum);
            List<Trade> trades = trades(stack, o.orderNo(), tradeRows.getOrDefault(o.id(), List.of()));
            List<Trade> accepted = trades.stream().filter(Trade::accepted).toList();
            Optional<WalletTrade> paidBy = accepted.size() == 1 ? Optional.ofNullable(accepted.get(0).wallet())
                    : Optional.empty();
            for (Trade t : trades) {
                violations.addAll(money(label, t));
                keptHere = keptHere.add(t.keptHere());
                keptAtWallets = keptAtWallets.add(t.keptAtWallet());
                if (t.accepted() || t.wallet() == null) {
                    continue;
                }
                if (t.wallet().paid()) {
                    if (t.keptAtWallet().signum() != 0) {
                        violations.add(label + ": " + t + " took money that did not pay the order, not refunded");
                    } else {
                        refunds++;
                    }
                } else if (t.wallet().payable() && "CLOSED".equals(o.status())) {
                    if (t.offered()) {
                        violations.add(label + ": order decided but the code it offered is still payable: " + t);
                    } else {
                        // Created at the wallet, but its answer never reached the service: no one was given its code.
                        unofferedQrCodes++;
                    }
                }
            }
            long delivered = deliveries.getOrDefault(o.orderNo(), 0L);
            eventDeliveries += delivered;
            switch (o.status()) {
                case "PENDING_PAYMENT" -> violations.add(label + ": still unpaid and open");
                case "PAID" -> {
                    if (!o.paidAt() || o.closedAt() || o.closeReason() != null) {
                        violations.add(label + ": PAID with paid_at=" + o.paidAt() + " closed_at=" + o.closedAt()
                                + " close_reason=" + o.closeReason() + " (two transitions?)");
                    }
                    if (accepted.size() != 1) {
                        violations.add(label + ": PAID with " + accepted.size() + " accepted trades: " + trades);
                    } else if (paidBy.isEmpty() || !paidBy.get().paid()
                            || paidBy.get().total().compareTo(o.amount()) != 0) {
                        violations.add(label + ": PAID without a paid trade of its amount at its wallet: "
                                + accepted.get(0));
                    }
                    if (o.outboxRows() != 1) {
                        violations.add(label + ": " + o.outboxRows() + " 'order paid' outbox rows (one transition -> one)");
                    }
                    if (o.outboxUnpublished() > 0) {
                        violations.add(label + ": 'order paid' event not published by the relay");
                    }
                    if (delivered == 0) {
                        violations.add(label + ": no 'order paid' event received");
                    }
                    duplicates += Math.max(0, delivered - 1);
                }
                case "CLOSED" -> {
                    if (o.paidAt() || !o.closedAt() || o.closeReason() == null) {
                        violations.add(label + ": CLOSED with paid_at=" + o.paidAt() + " closed_at=" + o.closedAt()
                                + " (two transitions?)");
                    }
                    if (o.outboxRows() != 0 || delivered != 0) {
                        violations.add(label + ": CLOSED but " + o.outboxRows() + " outbox rows, " + delivered
                                + " 'order paid' events");
                    }
                    if (!accepted.isEmpty()) {
                        violations.add(label + ": CLOSED with an accepted trade: " + accepted);
                    }
                    if ("EXPIRED".equals(o.closeReason()) && o.latenessMicros() != null) {
                        long ms = o.latenessMicros() / 1000;
                        lateness.add(ms);
                        if (ms < 0) {
                            violations.add(label + ": closed " + (-ms) + " ms before its deadline");
                        } else if (ms > latenessBound.toMillis()) {
                            violations.add(label + ": closed " + ms + " ms after its deadline, bound "
                                    + latenessBound.toMillis() + " ms");
                        }
                    }
                }
                case "REFUNDED" -> {
                    // Paid, then refunded in full (RefundStorm holds the refunds themselves to the wallet's).
                    if (!o.paidAt() || o.closedAt() || o.closeReason() != null) {
                        violations.add(label + ": REFUNDED with paid_at=" + o.paidAt() + " closed_at=" + o.closedAt()
                                + " close_reason=" + o.closeReason());
                    }
                    if (accepted.size() != 1 || paidBy.isEmpty()
                            || paidBy.get().refunded().compareTo(o.amount()) != 0
                            || o.refunded() == null || o.refunded().compareTo(o.amount()) != 0) {
                        violations.add(label + ": REFUNDED, recorded " + o.refunded() + " of " + o.amount()
                                + ", accepted trades: " + accepted);
                    }
                    if (o.outboxRows() != 1 || o.outboxUnpublished() > 0 || delivered == 0) {
                        violations.add(label + ": REFUNDED with " + o.outboxRows() + " 'order paid' outbox rows ("
                                + o.outboxUnpublished() + " unpublished), " + delivered + " events received");
                    }
                    duplicates += Math.max(0, delivered - 1);
                }
                default -> violations.add(label + ": unexpected status");
            }
        }
        violations.addAll(stock(stack, skus));
        try (Connection c = stack.connect()) {
            violations.addAll(AllowanceInvariant.violations(c, null));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return new Result(violations, statuses, lateness, eventDeliveries, duplicates, refunds, unofferedQrCodes,
                keptHere, keptAtWallets);
    }

    /**
     * One trade's money: what the service holds by its books (paid less SUCCEEDED refunds) is what its wallet holds,
     * made in as many refunds (a refund made twice at the wallet, or one made and never recorded, shows here).
     */
    private static List<String> money(String label, Trade t) {
        List<String> violations = new ArrayList<>();
        if (t.keptHere().compareTo(t.keptAtWallet()) != 0) {
            violations.add(label + ": " + t + ": " + t.keptHere().toPlainString() + " kept here (paid "
                    + (t.here() == null ? "-" : t.here().paid()) + ", refunded " + (t.here() == null ? "-"
                    : t.here().refunded().toPlainString()) + "), " + t.keptAtWallet().toPlainString()
                    + " at the wallet");
        }
        if (t.refundsHere() != t.refundsAtWallet()) {
            violations.add(label + ": " + t + ": " + t.refundsAtWallet() + " refunds at the wallet, "
                    + t.refundsHere() + " SUCCEEDED here (a refund made twice, or not recorded)");
        }
        if (t.here() != null && t.keptHere().signum() < 0) {
            violations.add(label + ": " + t + ": refunded " + t.here().refunded().toPlainString() + " here of "
                    + t.here().paid() + " paid");
        }
        return violations;
    }

    /**
     * The order's trades: one per payment row, at its channel's sandbox, and its Alipay trade (numbered as the order)
     * even without a row, as an order of an earlier version may have one.
     */
    private static List<Trade> trades(ServiceStack stack, String orderNo, List<TradeRow> rows) {
        List<Trade> trades = new ArrayList<>();
        for (TradeRow row : rows) {
            trades.add(new Trade(row.channel(), row.outTradeNo(), row,
                    WalletTrade.at(stack, row.channel(), row.outTradeNo()).orElse(null)));
        }
        if (rows.stream().noneMatch(r -> r.outTradeNo().equals(orderNo))) {
            WalletTrade.at(stack, WalletTrade.ALIPAY, orderNo)
                    .ifPresent(t -> trades.add(new Trade(WalletTrade.ALIPAY, orderNo, null, t)));
        }
        return trades;
    }

    /** The orders' trades as recorded here, by order id, with their refunds' totals. */
    static Map<Long, List<TradeRow>> trades(ServiceStack stack, List<Long> ids) {
        Map<Long, List<TradeRow>> trades = new HashMap<>();
        if (ids.isEmpty()) {
            return trades;
        }
        String in = ids.stream().map(String::valueOf).collect(Collectors.joining(","));
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement("""
                SELECT p.order_id, p.channel, p.out_trade_no, p.status, p.accepted, p.paid_amount,
                  p.qr_code IS NOT NULL,
                  (SELECT COALESCE(SUM(r.amount), 0) FROM refund r WHERE r.out_trade_no = p.out_trade_no
                    AND r.status = 'SUCCEEDED'),
                  (SELECT COUNT(*) FROM refund r WHERE r.out_trade_no = p.out_trade_no AND r.status = 'SUCCEEDED')
                FROM payment p WHERE p.order_id IN (""" + in + ")")) {
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    trades.computeIfAbsent(rs.getLong(1), id -> new ArrayList<>()).add(new TradeRow(rs.getString(2),
                            rs.getString(3), rs.getString(4), rs.getBoolean(5), rs.getBigDecimal(6), rs.getBoolean(7),
                            rs.getBigDecimal(8), rs.getInt(9)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return trades;
    }

    /**
     * lock_stock = PENDING quantities, initial - stock = PAID and REFUNDED quantities less what succeeded refunds
     * restocked, never negative; one consistent read per SKU. A SKU's stock and lock_stock are its row's plus its
     * buckets' (a SKU in buckets holds none on its row), and a SKU in buckets is held to {@link #buckets} as well.
     */
    static List<String> stock(ServiceStack stack, Collection<Long> skus) {
        List<String> violations = new ArrayList<>();
        try (Connection c = stack.connect()) {
            for (long sku : skus) {
                violations.addAll(consistently(c, () -> stock(c, sku, stack.initialStock(sku))));
            }
        } catch (SQLException e) {
            violations.add("stock check failed: " + e);
        }
        return violations;
    }

    private interface Reads {
        List<String> read() throws SQLException;
    }

    /** The reads in one REPEATABLE READ transaction: one snapshot, as if they were one statement. */
    private static List<String> consistently(Connection c, Reads reads) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try (Statement st = c.createStatement()) {
            st.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
            return reads.read();
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    private static List<String> stock(Connection c, long sku, int initial) throws SQLException {
        List<String> violations = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("""
                SELECT s.stock + COALESCE((SELECT SUM(b.stock) FROM sku_bucket b WHERE b.sku_id = s.id), 0),
                  s.lock_stock + COALESCE((SELECT SUM(b.lock_stock) FROM sku_bucket b WHERE b.sku_id = s.id), 0),
                  (SELECT COALESCE(SUM(i.quantity), 0) FROM order_item i JOIN orders o ON o.id = i.order_id
                    WHERE i.sku_id = s.id AND o.status = 'PENDING_PAYMENT'),
                  (SELECT COALESCE(SUM(i.quantity), 0) FROM order_item i JOIN orders o ON o.id = i.order_id
                    WHERE i.sku_id = s.id AND o.status IN ('PAID', 'REFUNDED'))
                  - (SELECT COALESCE(SUM(l.quantity), 0) FROM refund_restock l JOIN refund r ON r.id = l.refund_id
                    WHERE l.sku_id = s.id AND r.status = 'SUCCEEDED')
                FROM sku s WHERE s.id = ?""")) {
            st.setLong(1, sku);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return List.of("SKU " + sku + ": not in the database");
                }
                long stock = rs.getLong(1);
                long lock = rs.getLong(2);
                long pending = rs.getLong(3);
                long paid = rs.getLong(4);
                if (stock < 0 || lock < 0 || lock > stock) {
                    violations.add("SKU " + sku + ": stock " + stock + ", locked " + lock + " (negative or oversold)");
                }
                if (lock != pending) {
                    violations.add("SKU " + sku + ": locked " + lock + " but pending orders hold " + pending
                            + " (stock left locked by a paid or closed order, or lost)");
                }
                if (initial - stock != paid) {
                    violations.add("SKU " + sku + ": initial " + initial + " - stock " + stock + " != paid quantity "
                            + paid + " (double deduction or oversell)");
                }
            }
        }
        violations.addAll(buckets(c, sku));
        return violations;
    }

    /**
     * The per-bucket invariant, on the caller's connection (give it a consistent snapshot, as {@link #stock} does).
     * A SKU in n > 1 buckets: rows 0 .. n-1, each at the SKU's version and layout, none beyond them holding stock,
     * nothing on the SKU's row; bucket k locks what its SKU's PENDING_PAYMENT items placed under the current layout
     * took from k (their stock_buckets, "bucket:units" ascending, adding up to the quantity), and bucket 0 also every
     * unit of the pending items placed under another layout or before the SKU had buckets (laying the buckets out
     * moves those holds into bucket 0). A SKU in 1 bucket: no stock left in bucket rows, where placement no longer
     * looks. Empty for a SKU that is not in the database.
     */
    public static List<String> buckets(Connection c, long sku) throws SQLException {
        List<String> violations = new ArrayList<>();
        int buckets;
        int layout;
        int version;
        long rowStock;
        long rowLock;
        try (PreparedStatement st = c.prepareStatement(
                "SELECT buckets, layout, version, stock, lock_stock FROM sku WHERE id = ?")) {
            st.setLong(1, sku);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return violations;
                }
                buckets = rs.getInt(1);
                layout = rs.getInt(2);
                version = rs.getInt(3);
                rowStock = rs.getLong(4);
                rowLock = rs.getLong(5);
            }
        }
        String label = "SKU " + sku + " (" + buckets + " buckets, layout " + layout + ")";
        long[] locked = new long[Math.max(1, buckets)];
        boolean[] present = new boolean[locked.length];
        try (PreparedStatement st = c.prepareStatement("SELECT bucket_no, stock, lock_stock, sku_version, layout "
                + "FROM sku_bucket WHERE sku_id = ? ORDER BY bucket_no")) {
            st.setLong(1, sku);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    int k = rs.getInt(1);
                    long s = rs.getLong(2);
                    long l = rs.getLong(3);
                    if (buckets == 1 || k < 0 || k >= buckets) {
                        if (s != 0 || l != 0) {
                            violations.add(label + ": bucket row " + k + " outside the layout holds stock " + s
                                    + ", locked " + l + " (stock placement cannot reach)");
                        }
                        continue;
                    }
                    present[k] = true;
                    locked[k] = l;
                    if (l < 0 || l > s) {
                        violations.add(label + ": bucket " + k + " stock " + s + ", locked " + l
                                + " (negative or oversold)");
                    }
                    if (rs.getInt(4) != version || rs.getInt(5) != layout) {
                        violations.add(label + ": bucket " + k + " at version " + rs.getInt(4) + ", layout "
                                + rs.getInt(5) + ", the SKU at version " + version
                                + " (a change of the SKU that missed a bucket row)");
                    }
                }
            }
        }
        if (buckets == 1) {
            return violations;
        }
        if (rowStock != 0 || rowLock != 0) {
            violations.add(label + ": stock " + rowStock + ", locked " + rowLock + " on the SKU row itself");
        }
        for (int k = 0; k < buckets; k++) {
            if (!present[k]) {
                violations.add(label + ": bucket row " + k + " missing");
            }
        }
        long[] held = new long[buckets];
        try (PreparedStatement st = c.prepareStatement("""
                SELECT i.id, i.quantity, i.stock_buckets, i.stock_layout FROM order_item i
                  JOIN orders o ON o.id = i.order_id WHERE i.sku_id = ? AND o.status = 'PENDING_PAYMENT'""")) {
            st.setLong(1, sku);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long item = rs.getLong(1);
                    int quantity = rs.getInt(2);
                    String taken = rs.getString(3);
                    int itemLayout = rs.getInt(4);
                    boolean currentLayout = !rs.wasNull() && itemLayout == layout;
                    if (!currentLayout) {
                        held[0] += quantity;
                    } else if (taken == null) {
                        violations.add(label + ": pending item " + item + " placed under the current layout "
                                + "without stock_buckets");
                    } else {
                        takenFrom(taken, quantity, held, "pending item " + item, label, violations);
                    }
                }
            }
        }
        for (int k = 0; k < buckets; k++) {
            if (present[k] && locked[k] != held[k]) {
                violations.add(label + ": bucket " + k + " locked " + locked[k] + " but pending orders hold "
                        + held[k] + " of it (a hold released from or reserved in the wrong bucket, or lost)");
            }
        }
        return violations;
    }

    /** Adds an item's "bucket:units" pairs to {@code held}; a malformed list is a violation and adds nothing. */
    private static void takenFrom(String taken, int quantity, long[] held, String item, String label,
                                  List<String> violations) {
        long[] units = new long[held.length];
        long sum = 0;
        int previous = -1;
        for (String pair : taken.split(",", -1)) {
            String[] parts = pair.trim().split(":", -1);
            int k;
            long n;
            try {
                k = Integer.parseInt(parts[0].trim());
                n = parts.length == 2 ? Long.parseLong(parts[1].trim()) : -1;
            } catch (NumberFormatException e) {
                k = -1;
                n = -1;
            }
            if (k <= previous || k >= held.length || n <= 0) {
                violations.add(label + ": " + item + " stock_buckets '" + taken + "' is not ascending "
                        + "bucket:units pairs within 0.." + (held.length - 1));
                return;
            }
            previous = k;
            units[k] = n;
            sum += n;
        }
        if (sum != quantity) {
            violations.add(label + ": " + item + " stock_buckets '" + taken + "' add up to " + sum + ", its quantity is "
                    + quantity);
            return;
        }
        for (int k = 0; k < held.length; k++) {
            held[k] += units[k];
        }
    }

    static List<OrderRow> orders(ServiceStack stack, List<Long> ids) {
        List<OrderRow> rows = new ArrayList<>();
        if (ids.isEmpty()) {
            return rows;
        }
        String in = ids.stream().map(String::valueOf).collect(Collectors.joining(","));
        // The outbox counted once, grouped by key, not once per order: it has no index by key, and the benchmark's
        // soak checks a hundred thousand orders and more against an outbox as large.
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement("""
                SELECT o.id, o.order_no, o.status, o.close_reason, o.total_amount, o.paid_at IS NOT NULL,
                  o.closed_at IS NOT NULL, TIMESTAMPDIFF(MICROSECOND, o.pay_deadline, o.closed_at),
                  COALESCE(e.paid_events, 0), COALESCE(e.paid_unpublished, 0),
                  (SELECT p.refund_amount FROM payment p WHERE p.order_id = o.id AND p.accepted)
                FROM orders o LEFT JOIN (SELECT message_key, COUNT(*) AS paid_events,
                    SUM(published_at IS NULL) AS paid_unpublished FROM outbox_event WHERE topic = ?
                    GROUP BY message_key) e ON e.message_key = o.order_no
                WHERE o.id IN (""" + in + ")")) {
            // Only the "order paid" events: refunds write events of their own under the same key.
            st.setString(1, ServiceStack.PAID_TOPIC);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    long late = rs.getLong(8);
                    rows.add(new OrderRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getBigDecimal(5), rs.getBoolean(6), rs.getBoolean(7), rs.wasNull() ? null : late,
                            rs.getInt(9), rs.getInt(10), rs.getBigDecimal(11)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    /** How many of these orders are still PENDING_PAYMENT (-1 when the database cannot say). */
    static int pending(ServiceStack stack, List<Long> ids) {
        try {
            return (int) orders(stack, ids).stream().filter(o -> "PENDING_PAYMENT".equals(o.status())).count();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
