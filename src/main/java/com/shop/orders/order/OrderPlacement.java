package com.shop.orders.order;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;

import com.shop.orders.inventory.EmptyBuckets;
import com.shop.orders.inventory.InsufficientStockException;
import com.shop.orders.inventory.SkuCatalog.PricedSku;
import com.shop.orders.inventory.SkuCatalog;
import com.shop.orders.inventory.StockLine;
import com.shop.orders.inventory.StockLocks.PricedLine;
import com.shop.orders.inventory.StockLocks;
import com.shop.orders.sql.Deadlock;
import com.shop.orders.sql.Sql;
import com.shop.orders.sql.UniqueViolation;
import com.shop.orders.tracing.TraceContexts;
import com.shop.orders.web.ProblemException;
import com.shop.orders.web.RequestDigest;

import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.mysqlclient.MySQLClient;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Places orders: the order, its items, the member's purchase allowances and the stock reservation of every line
 * in one transaction, all lines or none. The hot path of the service, so it is plain SQL on the reactive pool (no
 * ORM), needs no read inside the transaction, and reserves stock last, right before COMMIT: on a hot SKU every
 * order waits for that row's lock, and the lock is held from the UPDATE to the COMMIT only. A SKU the database
 * just found sold out is refused from memory ({@link SoldOutSkus}), without a transaction.
 */
@ApplicationScoped
public class OrderPlacement {

    private static final String IDEMPOTENCY_KEY = "uk_orders_member_idempotency";
    private static final int DEADLOCK_RETRIES = 3;
    /**
     * Placements that each try one bucket before one locks all of a SKU's buckets: each failed try costs a
     * transaction, and the lock on all serializes the placements that take it, so both are kept for a sale's end.
     */
    private static final int ONE_BUCKET_TRIES = 2;

    private final Pool pool;
    private final SkuCatalog catalog;
    private final StockLocks stock;
    private final EmptyBuckets emptyBuckets;
    private final OrderQueries queries;
    private final PurchaseAllowances allowances;
    private final SoldOutSkus soldOut;
    private final OrderMetrics metrics;
    private final OrderConfig config;
    private final Event<OrderPlaced> placed;
    private final Clock clock;

    public OrderPlacement(Pool pool, SkuCatalog catalog, StockLocks stock, EmptyBuckets emptyBuckets, OrderQueries queries,
            PurchaseAllowances allowances, SoldOutSkus soldOut, OrderMetrics metrics, OrderConfig config,
            Event<OrderPlaced> placed, Clock clock) {
        this.pool = pool;
        this.catalog = catalog;
        this.stock = stock;
        this.emptyBuckets = emptyBuckets;
        this.queries = queries;
        this.allowances = allowances;
        this.soldOut = soldOut;
        this.metrics = metrics;
        this.config = config;
        this.placed = placed;
        this.clock = clock;
    }

    /**
     * Creates the order. With an idempotency key, a retry of the same request returns the order the first
     * one created (also when both run at once); the same key with another body is refused.
     */
    public Uni<PlacedOrder> place(String memberId, PlaceOrderRequest request, String idempotencyKey) {
        ProblemException outOfLimits = outOfLimits(request);
        if (outOfLimits != null) {
            throw outOfLimits;
        }
        // Only a retry with the same key is compared with the first request.
        String requestHash = idempotencyKey == null ? null : hash(request);
        List<Long> skuIds = request.items().stream().map(PlaceOrderRequest.Line::skuId).toList();
        Long soldOutSku = soldOut.firstSoldOut(skuIds);
        if (soldOutSku != null) {
            // A retry of an order that was placed before the SKU sold out still gets that order.
            return idempotencyKey == null ? Uni.createFrom().failure(new InsufficientStockException(soldOutSku))
                    : queries.findByIdempotencyKey(memberId, idempotencyKey).chain(existing -> existing == null
                            ? Uni.createFrom().failure(new InsufficientStockException(soldOutSku))
                            : replay(memberId, idempotencyKey, requestHash));
        }
        Timer.Sample sample = metrics.startPlacement();
        return placeAtCurrentPrices(memberId, request, idempotencyKey, requestHash, true, 0)
                .invoke(order -> metrics.placed(sample))
                .invoke(order -> soldOut.placed(skuIds))
                .invoke(order -> placed.fire(new OrderPlaced(order.id(), order.orderNo(), order.createdAt(),
                        order.payDeadline())))
                .map(order -> new PlacedOrder(order, false))
                .onFailure(f -> idempotencyKey != null && UniqueViolation.isCause(f, IDEMPOTENCY_KEY))
                .recoverWithUni(() -> replay(memberId, idempotencyKey, requestHash));
    }

    /**
     * {@code mayRecompute}: whether a change of a SKU since the catalog read it may still start the order over;
     * {@code bucketTries}: how many placements of it tried one bucket and found it without the units.
     */
    private Uni<OrderView> placeAtCurrentPrices(String memberId, PlaceOrderRequest request, String idempotencyKey,
            String requestHash, boolean mayRecompute, int bucketTries) {
        return catalog.find(request.items().stream().map(PlaceOrderRequest.Line::skuId).toList())
                .map(skus -> newOrder(memberId, request, skus, idempotencyKey, requestHash,
                        bucketTries >= ONE_BUCKET_TRIES))
                .chain(order -> insert(order)
                        .onFailure(StockLocks.NotLocked.class).recoverWithUni(failure -> notLocked(
                                (StockLocks.NotLocked) failure, order, memberId, request, idempotencyKey, requestHash,
                                mayRecompute, bucketTries)));
    }

    /**
     * A line could not be reserved: the one bucket it tried lacks the units (then another is tried, and in the end
     * all at once), not enough stock, or the SKU's price, purchase limit or buckets changed since the catalog read
     * it (then the order is computed again with the new ones, once).
     */
    private Uni<OrderView> notLocked(StockLocks.NotLocked failure, NewOrder order, String memberId,
            PlaceOrderRequest request, String idempotencyKey, String requestHash, boolean mayRecompute,
            int bucketTries) {
        if (failure.triedSomeBuckets()) {
            return placeAtCurrentPrices(memberId, request, idempotencyKey, requestHash, mayRecompute, bucketTries + 1);
        }
        long skuId = failure.skuId();
        catalog.forget(skuId);
        return catalog.find(List.of(skuId)).chain(current -> {
            PricedSku now = current.get(skuId);
            boolean changed = now != null && now.changedSince(order.sku(skuId));
            if (changed && mayRecompute) {
                return placeAtCurrentPrices(memberId, request, idempotencyKey, requestHash, false, 0);
            }
            if (!changed) {
                soldOut.refusedByDatabase(skuId);
            }
            return Uni.createFrom().failure(new InsufficientStockException(skuId));
        });
    }

    /**
     * The transaction, run again when InnoDB picked it as a deadlock's victim: a member's first orders placed at
     * once all insert the same new allowance rows, whose gap locks can deadlock (the insert rolled back whole).
     */
    private Uni<OrderView> insert(NewOrder order) {
        return inTransaction(order).onFailure(Deadlock::isCause).retry().atMost(DEADLOCK_RETRIES);
    }

    private Uni<OrderView> inTransaction(NewOrder order) {
        return pool.withTransaction(connection -> stock.lockBuckets(connection, order.stockLines())
                .chain(shares -> insertOrder(connection, order)
                        .call(orderId -> insertItems(connection, orderId, order, shares))
                        .call(orderId -> allowances.take(connection, order.memberId(), order.allowanceLines(),
                                order.limits(), config.maxUnpaidPerMember()))
                        // Last before COMMIT: the shortest possible hold of each SKU's row lock.
                        .call(orderId -> stock.lockSkuRows(connection, order.stockLines())))
                .map(order::view));
    }

    private Uni<Long> insertOrder(SqlConnection connection, NewOrder order) {
        // The placing trace is kept on the row: the order's check-backs and close link to it (its timeline shows it).
        return connection.preparedQuery("INSERT INTO orders (order_no, member_id, status, total_amount, pay_deadline, "
                + "created_at, idempotency_key, request_hash, trace_parent) VALUES (?, ?, 'PENDING_PAYMENT', ?, ?, ?, ?, ?, ?)")
                .execute(Tuple.from(List.of(order.orderNo(), order.memberId(), order.total(), Sql.utc(order.deadline()),
                        Sql.utc(order.createdAt()))).addValue(order.idempotencyKey()).addValue(order.requestHash())
                        .addValue(TraceContexts.currentTraceparent()))
                .map(rows -> rows.property(MySQLClient.LAST_INSERTED_ID));
    }

    /** {@code shares}: by SKU, the buckets its units were reserved from (none for a SKU without buckets). */
    private Uni<Void> insertItems(SqlConnection connection, long orderId, NewOrder order, Map<Long, String> shares) {
        String values = String.join(", ", Collections.nCopies(order.lines().size(), "(?, ?, ?, ?, ?, ?, ?)"));
        Tuple params = Tuple.tuple();
        for (NewOrder.Line line : order.lines()) {
            PricedSku sku = line.sku();
            params.addLong(orderId).addLong(sku.id()).addString(sku.name()).addValue(sku.price())
                    .addInteger(line.quantity()).addValue(shares.get(sku.id()))
                    .addValue(sku.buckets() > 1 ? sku.layout() : null);
        }
        return connection.preparedQuery("INSERT INTO order_item (order_id, sku_id, sku_name, unit_price, quantity, "
                + "stock_buckets, stock_layout) VALUES " + values).execute(params).replaceWithVoid();
    }

    private Uni<PlacedOrder> replay(String memberId, String idempotencyKey, String requestHash) {
        return queries.findByIdempotencyKey(memberId, idempotencyKey)
                .onItem().ifNull().failWith(() -> new IllegalStateException("Order with idempotency key vanished"))
                .map(existing -> {
                    if (!existing.requestHash().equals(requestHash)) {
                        throw new ProblemException(422, "Idempotency key reused",
                                "This Idempotency-Key was already used for a different order request");
                    }
                    return new PlacedOrder(existing.view(), true);
                });
    }

    /** {@code allBuckets}: every bucketed line reserves from all its SKU's buckets, not from one. */
    private NewOrder newOrder(String memberId, PlaceOrderRequest request, Map<Long, PricedSku> skus,
            String idempotencyKey, String requestHash, boolean allBuckets) {
        List<Long> unknown = request.items().stream().map(PlaceOrderRequest.Line::skuId)
                .filter(id -> !skus.containsKey(id)).toList();
        if (!unknown.isEmpty()) {
            throw new UnknownSkuException(unknown);
        }
        // The database keeps microseconds: answer with the times as they are stored.
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        List<NewOrder.Line> lines = new ArrayList<>();
        request.items().forEach(line -> {
            PricedSku sku = skus.get(line.skuId());
            lines.add(new NewOrder.Line(sku, line.quantity(), bucketFor(sku, allBuckets)));
        });
        return new NewOrder(OrderNumbers.next(now), memberId, now, now.plus(config.payTimeout()), idempotencyKey,
                requestHash, lines);
    }

    /** Units went back to the buckets they came from (here or on another instance): those are worth trying again. */
    void onTransition(@Observes OrderTransition transition) {
        if (transition.releasedSkuIds() != null) {
            transition.releasedSkuIds().forEach(emptyBuckets::forget);
        }
    }

    /** Where a line on this SKU reserves: its row, one bucket that is not known to be empty, or all buckets. */
    private int bucketFor(PricedSku sku, boolean allBuckets) {
        if (sku.buckets() == 1) {
            return StockLocks.SKU_ROW;
        }
        return allBuckets ? StockLocks.ALL_BUCKETS : emptyBuckets.choose(sku.id(), sku.buckets());
    }

    /**
     * The SKUs of a request within the configured limits, in its order, or null when {@link #place} would refuse it
     * as outside them. For {@link SoldOutFastPath}, which asks {@link SoldOutSkus#soldOutWithinBound} about them and
     * leaves every other request, and every re-check past the bound, to {@link #place}.
     */
    List<Long> skusWithinLimits(PlaceOrderRequest request) {
        return outOfLimits(request) != null ? null
                : request.items().stream().map(PlaceOrderRequest.Line::skuId).toList();
    }

    /** Why the request is outside the configured limits (400), or null. */
    private ProblemException outOfLimits(PlaceOrderRequest request) {
        if (request.items().size() > config.maxLines()) {
            return ProblemException.invalid("items", "at most " + config.maxLines() + " lines per order");
        }
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < request.items().size(); i++) {
            PlaceOrderRequest.Line line = request.items().get(i);
            if (line.quantity() > config.maxQuantity()) {
                return ProblemException.invalid("items[" + i + "].quantity", "must be at most " + config.maxQuantity());
            }
            if (!seen.add(line.skuId())) {
                return ProblemException.invalid("items[" + i + "].skuId",
                        "SKU " + line.skuId() + " appears in more than one line");
            }
        }
        return null;
    }

    /** Identifies the request's content, so that a reused key with a different body is refused. */
    private static String hash(PlaceOrderRequest request) {
        return RequestDigest.of(request.items().stream()
                .sorted(Comparator.comparing(PlaceOrderRequest.Line::skuId))
                .map(line -> line.skuId() + "x" + line.quantity())
                .collect(Collectors.joining(",")));
    }

    /** An order about to be written. */
    private record NewOrder(String orderNo, String memberId, Instant createdAt, Instant deadline,
            String idempotencyKey, String requestHash, List<Line> lines) {

        /** {@code bucket}: where it reserves, see {@link PricedLine}. */
        record Line(PricedSku sku, int quantity, int bucket) {
        }

        BigDecimal total() {
            return lines.stream().map(line -> line.sku().price().multiply(BigDecimal.valueOf(line.quantity())))
                    .reduce(BigDecimal.ZERO, BigDecimal::add);
        }

        PricedSku sku(long skuId) {
            return lines.stream().filter(line -> line.sku().id() == skuId).findFirst().orElseThrow().sku();
        }

        List<PricedLine> stockLines() {
            return lines.stream().map(line -> new PricedLine(line.sku().id(), line.quantity(), line.sku().price(),
                    line.sku().perMemberLimit(), line.sku().version(), line.sku().buckets(), line.bucket())).toList();
        }

        List<StockLine> allowanceLines() {
            return lines.stream().map(line -> new StockLine(line.sku().id(), line.quantity())).toList();
        }

        /** The purchase limit of each limited SKU. */
        Map<Long, Integer> limits() {
            Map<Long, Integer> limits = new HashMap<>();
            lines.stream().filter(line -> line.sku().perMemberLimit() != null)
                    .forEach(line -> limits.put(line.sku().id(), line.sku().perMemberLimit()));
            return limits;
        }

        OrderView view(long id) {
            return new OrderView(id, orderNo, OrderStatus.PENDING_PAYMENT, null, total(), deadline, createdAt, null,
                    null, null, null, lines.stream().map(line -> new OrderView.Item(line.sku().id(), line.sku().name(),
                            line.sku().price(), line.quantity())).toList(), null);
        }
    }
}
