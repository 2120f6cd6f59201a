package com.shop.orders.harness;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;

import com.shop.orders.testsupport.Pause;

/**
 * Admin refunds of paid orders through the stack's front, many at once: one order refunded by many small
 * concurrent requests (more than its payment), the others in part or in full by a few, some requests repeated with
 * their Idempotency-Key, as an admin's browser retrying does. Clients retry 5xx and lost connections with the same
 * key ({@link OrderStream#call}). {@link #violations} then holds the money to the database and to the trades at the
 * wallet the orders were paid with.
 */
final class RefundStorm {

    /** A paid order of the storm. */
    record Paid(long id, String orderNo, BigDecimal amount, long skuId, int quantity) {
    }

    /** One refund request as planned: {@code repeat} sends it a second time with the same key and body. */
    record Planned(Paid order, String key, BigDecimal amount, int restockUnits, boolean repeat) {
        String body() {
            return "{\"amount\":" + amount.toPlainString() + ",\"reason\":\"fault suite " + key + "\""
                    + (restockUnits == 0 ? "" : ",\"restock\":[{\"skuId\":" + order.skuId() + ",\"quantity\":"
                            + restockUnits + "}]")
                    + "}";
        }
    }

    /** What a request was finally answered (after the client's own retries of 5xx). */
    record Sent(Planned planned, boolean repeat, OrderStream.Answer answer) {
    }

    /** A refund row as the database holds it. */
    record Row(long id, long orderId, String outRequestNo, String cause, BigDecimal amount, String status,
               String idempotencyKey, int attempts, Instant requestedAt, Instant completedAt) {
    }

    private static final BigDecimal HOT_PART = new BigDecimal("0.99");

    private final ServiceStack stack;
    private final OrderStream client;
    private final String tag;
    private final String channel;
    private final String admin;
    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<String, AtomicInteger> byStatus = new ConcurrentHashMap<>();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();

    /** A storm of refunds of orders paid on {@code channel} ({@link WalletTrade#ALIPAY}, {@link WalletTrade#WECHAT}). */
    RefundStorm(ServiceStack stack, String tag, String channel) {
        this.stack = stack;
        this.tag = tag;
        this.channel = channel;
        // Its call(), QR request and buyer: the same retries, server-error counts and unexpected answers as the
        // order streams.
        this.client = new OrderStream(stack, tag, List.of(), 0, false, channel);
        this.admin = stack.tokens().adminToken(tag + "-admin");
    }

    /**
     * Places {@code count} orders of {@code quantity} units of the SKU through the front, pays each at the channel's
     * sandbox (notify on) and waits until the services have them PAID; answers those that are.
     */
    List<Paid> placeAndPay(int count, long skuId, int quantity) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(count, 8));
        List<Long> ids = new CopyOnWriteArrayList<>();
        for (int i = 0; i < count; i++) {
            int number = i;
            pool.submit(() -> {
                String token = stack.tokens().token(tag + "-m" + (number % 3));
                OrderStream.Answer placed = client.call("POST", "/api/orders", token,
                        "{\"items\":[{\"skuId\":" + skuId + ",\"quantity\":" + quantity + "}]}",
                        UUID.randomUUID().toString(), Instant.now().plusSeconds(30));
                if (placed.status() != 201 && placed.status() != 200) {
                    unexpected.add("place: " + placed);
                    return;
                }
                long id = placed.json().get("id").asLong();
                String code = client.requestQr(token, id, Instant.now().plusSeconds(4));
                if (code == null) {
                    unexpected.add("no QR code for order " + id);
                } else if (client.buyerPays(channel, code, true)) {
                    ids.add(id);
                } else {
                    unexpected.add("buyer could not pay order " + id);
                }
            });
        }
        pool.shutdown();
        if (!pool.awaitTermination(2, TimeUnit.MINUTES)) {
            throw new AssertionError("orders still being placed and paid after 2 minutes");
        }
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> Invariants.orders(stack, ids).stream().allMatch(o -> "PAID".equals(o.status())));
        return Invariants.orders(stack, ids).stream()
                .map(o -> new Paid(o.id(), o.orderNo(), o.amount(), skuId, quantity)).toList();
    }

    /**
     * The plan: the first order gets {@code onHot} requests of 0.99 (its payment is a multiple of 0.99, so it ends
     * fully refunded and the rest are refused), a few of them restocking a unit; of the others, every second one is
     * refunded in full in two parts (one restocking a unit) plus a request for more than was paid (always refused),
     * the rest in part by three small refunds. Every 7th request is sent twice with the same key.
     */
    List<Planned> plan(List<Paid> orders, int onHot) {
        List<Planned> plan = new ArrayList<>();
        Paid hot = orders.get(0);
        if (hot.amount().remainder(HOT_PART).signum() != 0) {
            throw new IllegalArgumentException("the hot order's amount is not a multiple of 0.99: " + hot.amount());
        }
        for (int i = 0; i < onHot; i++) {
            plan.add(new Planned(hot, tag + "-hot-" + i, HOT_PART, i % 10 == 3 ? 1 : 0, i % 7 == 0));
        }
        for (int j = 1; j < orders.size(); j++) {
            Paid order = orders.get(j);
            String key = tag + "-o" + order.id() + "-";
            if (j % 2 == 0) {
                BigDecimal first = order.amount().divide(BigDecimal.valueOf(2)).setScale(0, java.math.RoundingMode.UP)
                        .setScale(2);
                plan.add(new Planned(order, key + "a", first, 1, j % 4 == 0));
                plan.add(new Planned(order, key + "b", order.amount().subtract(first), 0, j % 4 == 2));
                plan.add(new Planned(order, key + "over", order.amount().add(new BigDecimal("0.01")), 0, false));
            } else {
                plan.add(new Planned(order, key + "a", new BigDecimal("1.00"), 0, j % 3 == 1));
                plan.add(new Planned(order, key + "b", new BigDecimal("2.50"), 1, false));
                plan.add(new Planned(order, key + "c", new BigDecimal("0.30"), 0, j % 3 == 0));
            }
        }
        java.util.Collections.shuffle(plan, new java.util.Random(plan.size()));
        return plan;
    }

    /**
     * Starts the plan's requests spread evenly over {@code spread} (repeats 0.2-1.5 s after their first), all at
     * once on their own threads, and returns when every one has been answered (or given up after its retries).
     */
    void fire(List<Planned> plan, Duration spread) throws InterruptedException {
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "refund-request");
            t.setDaemon(true);
            return t;
        });
        long step = spread.toNanos() / Math.max(1, plan.size());
        long start = System.nanoTime();
        for (int i = 0; i < plan.size(); i++) {
            Planned planned = plan.get(i);
            long wait = start + i * step - System.nanoTime();
            if (wait > 0) {
                Pause.of(Duration.ofNanos(wait));
            }
            pool.submit(() -> send(planned, false));
            if (planned.repeat()) {
                pool.submit(() -> {
                    Pause.of(Duration.ofMillis(ThreadLocalRandom.current().nextLong(200, 1500)));
                    send(planned, true);
                });
            }
        }
        pool.shutdown();
        if (!pool.awaitTermination(3, TimeUnit.MINUTES)) {
            throw new AssertionError("refund requests still unanswered after 3 minutes");
        }
    }

    private void send(Planned planned, boolean repeat) {
        inFlight.incrementAndGet();
        try {
            OrderStream.Answer answer = client.call("POST", "/api/admin/orders/" + planned.order().id() + "/refunds",
                    admin, planned.body(), planned.key(), Instant.now().plusSeconds(60));
            sent.add(new Sent(planned, repeat, answer));
            byStatus.computeIfAbsent(Integer.toString(answer.status()), k -> new AtomicInteger()).incrementAndGet();
            if (answer.status() != 201 && answer.status() != 200 && answer.status() != 409) {
                unexpected.add("refund " + planned.key() + (repeat ? " (repeated)" : "") + ": " + answer);
            }
        } catch (RuntimeException e) {
            unexpected.add("refund " + planned.key() + ": " + e);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Refund requests sent and not answered yet. */
    int inFlight() {
        return inFlight.get();
    }

    int requests() {
        return sent.size();
    }

    int answered(int status) {
        AtomicInteger n = byStatus.get(Integer.toString(status));
        return n == null ? 0 : n.get();
    }

    OrderStream client() {
        return client;
    }

    /** Refunds of these orders still PENDING (-1 when the database cannot say). */
    int pending(List<Paid> orders) {
        try {
            return (int) rows(orders).stream().filter(r -> "PENDING".equals(r.status())).count();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    List<Row> rows(List<Paid> orders) {
        String in = orders.stream().map(o -> Long.toString(o.id())).collect(Collectors.joining(","));
        List<Row> rows = new ArrayList<>();
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement("""
                SELECT id, order_id, out_request_no, cause, amount, status, idempotency_key, attempts, requested_at,
                  completed_at FROM refund WHERE order_id IN (""" + in + ") ORDER BY id");
                ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                java.sql.Timestamp completed = rs.getTimestamp(10);
                rows.add(new Row(rs.getLong(1), rs.getLong(2), rs.getString(3), rs.getString(4), rs.getBigDecimal(5),
                        rs.getString(6), rs.getString(7), rs.getInt(8), rs.getTimestamp(9).toInstant(),
                        completed == null ? null : completed.toInstant()));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return rows;
    }

    /**
     * Money, per order: what succeeded never exceeds what was paid; the wallet refunded exactly what the database says
     * succeeded, each refund under its own request number once and for the recorded amount (0 twice, 0 lost);
     * payment.refund_amount the same sum; the order REFUNDED exactly when refunded in full; nothing PENDING, nothing
     * FAILED unless {@code refusalsInjected}; one refund row per key that was answered 201/200, none for a key only
     * refused; a request refused for the amount was refused while that much was not left; each refund made
     * announced once on the outbox, and published.
     */
    List<String> violations(List<Paid> orders, boolean refusalsInjected) {
        List<String> violations = new ArrayList<>(unexpected);
        violations.addAll(client.unexpected());
        List<Row> rows = rows(orders);
        Map<Long, List<Row>> byOrder = rows.stream().collect(Collectors.groupingBy(Row::orderId));
        Map<Long, Invariants.OrderRow> orderRows = Invariants.orders(stack, orders.stream().map(Paid::id).toList())
                .stream().collect(Collectors.toMap(Invariants.OrderRow::id, o -> o));
        Map<String, Long> announced = refundedEvents(orders);
        for (Paid order : orders) {
            String label = "order " + order.orderNo();
            List<Row> refunds = byOrder.getOrDefault(order.id(), List.of());
            BigDecimal succeeded = BigDecimal.ZERO;
            Map<String, Row> byRequestNo = new HashMap<>();
            for (Row r : refunds) {
                switch (r.status()) {
                    case "SUCCEEDED" -> succeeded = succeeded.add(r.amount());
                    case "PENDING" -> violations.add(label + ": refund " + r.outRequestNo() + " still PENDING");
                    case "FAILED" -> {
                        if (!refusalsInjected) {
                            violations.add(label + ": refund " + r.outRequestNo() + " FAILED, no refusal was injected");
                        }
                    }
                    default -> violations.add(label + ": refund " + r.outRequestNo() + " in status " + r.status());
                }
                byRequestNo.put(r.outRequestNo() == null ? "" : r.outRequestNo(), r);
            }
            if (succeeded.compareTo(order.amount()) > 0) {
                violations.add(label + ": refunds succeeded " + succeeded + " of " + order.amount() + " paid");
            }
            WalletTrade trade = WalletTrade.at(stack, channel, WalletTrade.outTradeNo(channel, order.orderNo()))
                    .orElse(null);
            if (trade == null) {
                violations.add(label + ": no trade at " + channel);
                continue;
            }
            if (trade.refunded().compareTo(succeeded) != 0) {
                violations.add(label + ": " + channel + " refunded " + trade.refunded() + ", refunds SUCCEEDED here "
                        + succeeded + (trade.refunded().compareTo(succeeded) > 0 ? " (money refunded that is not recorded)"
                                : " (recorded refunds the wallet never made)"));
            }
            Set<String> seen = new HashSet<>();
            for (WalletTrade.Refund made : trade.made()) {
                if (!seen.add(made.requestNo())) {
                    violations.add(label + ": " + channel + " refunded request " + made.requestNo() + " twice");
                }
                Row row = byRequestNo.get(made.requestNo());
                if (row == null) {
                    violations.add(label + ": " + channel + " refunded " + made.amount() + " under "
                            + made.requestNo() + ", no refund recorded under that number");
                } else if (!"SUCCEEDED".equals(row.status()) || !made.done()) {
                    violations.add(label + ": " + channel + " refund " + made.requestNo() + (made.done() ? " made"
                            : " not made yet") + ", recorded " + row.status());
                } else if (row.amount().compareTo(made.amount()) != 0) {
                    violations.add(label + ": " + made.requestNo() + " refunded " + made.amount() + " at " + channel
                            + ", " + row.amount() + " recorded");
                }
            }
            for (Row r : refunds) {
                if ("SUCCEEDED".equals(r.status()) && trade.refund(r.outRequestNo() == null ? "" : r.outRequestNo())
                        .isEmpty()) {
                    violations.add(label + ": refund " + r.outRequestNo() + " SUCCEEDED but " + channel
                            + " never made it");
                }
                if ("SUCCEEDED".equals(r.status()) && r.outRequestNo() != null) {
                    long events = announced.getOrDefault(r.outRequestNo(), 0L);
                    if (events != 1) {
                        violations.add(label + ": refund " + r.outRequestNo() + " announced " + events
                                + " times on the outbox (or not published)");
                    }
                }
            }
            Invariants.OrderRow o = orderRows.get(order.id());
            boolean full = succeeded.compareTo(order.amount()) == 0;
            if (o == null) {
                violations.add(label + ": not in the database");
            } else {
                if (full != "REFUNDED".equals(o.status())) {
                    violations.add(label + ": " + o.status() + " with " + succeeded + " of " + order.amount()
                            + " refunded (REFUNDED exactly when refunded in full)");
                }
                if (!full && !"PAID".equals(o.status())) {
                    violations.add(label + ": " + o.status() + " after partial refunds");
                }
                BigDecimal recorded = o.refunded() == null ? BigDecimal.ZERO : o.refunded();
                if (recorded.compareTo(succeeded) != 0) {
                    violations.add(label + ": payment.refund_amount " + recorded + ", refunds SUCCEEDED " + succeeded);
                }
            }
            // What the clients were told, against what was recorded.
            Map<String, List<Sent>> answersByKey = new LinkedHashMap<>();
            sent.stream().filter(s -> s.planned().order().id() == order.id())
                    .forEach(s -> answersByKey.computeIfAbsent(s.planned().key(), k -> new ArrayList<>()).add(s));
            Map<String, List<Row>> rowsByKey = refunds.stream().filter(r -> "REQUESTED".equals(r.cause()))
                    .collect(Collectors.groupingBy(Row::idempotencyKey));
            for (Map.Entry<String, List<Sent>> e : answersByKey.entrySet()) {
                List<Row> recordedRows = rowsByKey.getOrDefault(e.getKey(), List.of());
                long created = e.getValue().stream().filter(s -> s.answer().status() == 201).count();
                boolean accepted = e.getValue().stream().anyMatch(s -> s.answer().status() == 201
                        || s.answer().status() == 200);
                if (created > 1) {
                    violations.add(label + ": key " + e.getKey() + " answered 201 " + created + " times");
                }
                if (accepted && recordedRows.size() != 1) {
                    violations.add(label + ": key " + e.getKey() + " accepted, " + recordedRows.size() + " refunds recorded");
                }
                if (!accepted && !recordedRows.isEmpty()) {
                    violations.add(label + ": key " + e.getKey() + " refused, yet " + recordedRows.size()
                            + " refunds recorded under it");
                }
                for (Sent s : e.getValue()) {
                    // (With refunds still PENDING the refusal was right then: those are reported above.)
                    if (s.answer().status() == 409 && s.answer().body() != null
                            && s.answer().body().contains("Refund exceeds payment") && !refusalsInjected
                            && refunds.stream().noneMatch(r -> "PENDING".equals(r.status()))
                            && succeeded.add(s.planned().amount()).compareTo(order.amount()) <= 0) {
                        violations.add(label + ": " + s.planned().amount() + " refused as exceeding the payment, yet"
                                + " only " + succeeded + " of " + order.amount() + " was ever refunded");
                    }
                    if (s.answer().status() == 200 && s.answer().headers().getOrDefault("idempotent-replayed",
                            List.of()).isEmpty()) {
                        violations.add(label + ": key " + e.getKey() + " answered 200 without Idempotent-Replayed");
                    }
                }
            }
            for (String key : rowsByKey.keySet()) {
                if (!answersByKey.containsKey(key)) {
                    violations.add(label + ": refund under key " + key + " that no client sent");
                }
            }
        }
        return violations;
    }

    /** Refund events on the outbox, by request number: only published ones count. */
    private Map<String, Long> refundedEvents(List<Paid> orders) {
        String in = orders.stream().map(o -> "'" + o.orderNo() + "'").collect(Collectors.joining(","));
        Map<String, Long> counts = new HashMap<>();
        try (Connection c = stack.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT payload, published_at IS NOT NULL FROM outbox_event WHERE topic = ? AND message_key IN (" + in
                        + ")")) {
            st.setString(1, ServiceStack.REFUNDED_TOPIC);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String payload = rs.getString(1);
                    java.util.regex.Matcher m = java.util.regex.Pattern
                            .compile("\"outRequestNo\"\\s*:\\s*\"([^\"]+)\"").matcher(payload);
                    if (m.find() && rs.getBoolean(2)) {
                        counts.merge(m.group(1), 1L, Long::sum);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return counts;
    }
}
