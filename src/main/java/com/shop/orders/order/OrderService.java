package com.shop.orders.order;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.common.ProblemException;
import com.shop.orders.common.UniqueViolation;
import com.shop.orders.expiry.TimeoutWatch;
import com.shop.orders.inventory.Sku;
import com.shop.orders.inventory.SkuRepository;
import com.shop.orders.inventory.StockService;

import io.micrometer.core.instrument.Timer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

@ApplicationScoped
public class OrderService {

    private static final Logger LOG = Logger.getLogger(OrderService.class);

    private final OrderRepository orders;
    private final SkuRepository skus;
    private final StockService stock;
    private final TimeoutWatch watch;
    private final OrderMetrics metrics;
    private final OrderConfig config;
    private final Clock clock;

    public OrderService(OrderRepository orders, SkuRepository skus, StockService stock, TimeoutWatch watch,
            OrderMetrics metrics, OrderConfig config, Clock clock) {
        this.orders = orders;
        this.skus = skus;
        this.stock = stock;
        this.watch = watch;
        this.metrics = metrics;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Creates the order and reserves its stock in one transaction, all lines or none. With an
     * idempotency key, a retry of the same request returns the order the first one created.
     */
    public Uni<PlacedOrder> place(String memberId, PlaceOrderRequest request, String idempotencyKey) {
        checkLimits(request);
        String requestHash = hash(request);
        Timer.Sample sample = metrics.startPlacement();
        return findReplay(memberId, idempotencyKey, requestHash)
                .onItem().ifNull().switchTo(() -> create(memberId, request, idempotencyKey, requestHash)
                        .invoke(created -> metrics.placed(sample))
                        .invoke(created -> watch.startFor(created.order().orderNo(), created.order().payDeadline()))
                        // A concurrent retry with the same key won the insert: answer with its order.
                        .onFailure(f -> idempotencyKey != null && UniqueViolation.isCause(f)).recoverWithUni(
                                () -> findReplay(memberId, idempotencyKey, requestHash)));
    }

    public Uni<OrderView> findOwned(long id, String memberId) {
        return Panache.withSession(() -> orders.findOwned(id, memberId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(id))
                .chain(this::view));
    }

    public Uni<OrderPage> listOwned(String memberId, OrderStatus status, int page, int size) {
        return Panache.withSession(() -> orders.pageOwned(memberId, status, page, size)
                .chain(found -> views(found))
                .chain(views -> orders.countOwned(memberId, status)
                        .map(total -> new OrderPage(page, size, total, views))));
    }

    public Uni<OrderView> view(Order order) {
        return orders.items(order.id).map(items -> OrderView.of(order, items));
    }

    private Uni<List<OrderView>> views(List<Order> found) {
        if (found.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return orders.items(found.stream().map(o -> o.id).toList())
                .map(items -> {
                    Map<Long, List<OrderItem>> byOrder = items.stream()
                            .collect(Collectors.groupingBy(i -> i.orderId));
                    return found.stream()
                            .map(o -> OrderView.of(o, byOrder.getOrDefault(o.id, List.of())))
                            .toList();
                });
    }

    private Uni<PlacedOrder> findReplay(String memberId, String idempotencyKey, String requestHash) {
        if (idempotencyKey == null) {
            return Uni.createFrom().nullItem();
        }
        return Panache.withSession(() -> orders.findByIdempotencyKey(memberId, idempotencyKey)
                .onItem().ifNotNull().transformToUni(existing -> {
                    if (!existing.requestHash.equals(requestHash)) {
                        return Uni.createFrom().failure(new ProblemException(422, "Idempotency key reused",
                                "This Idempotency-Key was already used for a different order request"));
                    }
                    return view(existing).map(v -> new PlacedOrder(v, true));
                }));
    }

    private Uni<PlacedOrder> create(String memberId, PlaceOrderRequest request, String idempotencyKey,
            String requestHash) {
        // The database keeps microseconds: answer with the deadline as it is stored.
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        return Panache.withTransaction(() -> skus.findByIds(request.items().stream().map(PlaceOrderRequest.Line::skuId).toList())
                .chain(found -> {
                    Map<Long, Sku> byId = found.stream().collect(Collectors.toMap(s -> s.id, Function.identity()));
                    List<Long> unknown = request.items().stream().map(PlaceOrderRequest.Line::skuId)
                            .filter(id -> !byId.containsKey(id)).toList();
                    if (!unknown.isEmpty()) {
                        throw new UnknownSkuException(unknown);
                    }
                    Order order = newOrder(memberId, request, byId, now, idempotencyKey, requestHash);
                    List<OrderItem> items = new ArrayList<>();
                    // Insert first: a concurrent duplicate Idempotency-Key fails here, before any stock moves.
                    // Stock before items: an item's foreign key check takes a shared lock on its SKU row,
                    // and two orders holding shared locks could not both upgrade them (deadlock).
                    return orders.persistAndFlush(order)
                            .invoke(() -> request.items()
                                    .forEach(line -> items.add(newItem(order, byId.get(line.skuId()), line))))
                            .chain(() -> stock.lockAll(items.stream().map(OrderItem::stockLine).toList()))
                            .chain(() -> OrderItem.persist(items))
                            .replaceWith(() -> new PlacedOrder(OrderView.of(order, items), false));
                }))
                .invoke(placed -> LOG.debugf("Order %s placed, pay by %s", placed.order().orderNo(),
                        placed.order().payDeadline()));
    }

    private Order newOrder(String memberId, PlaceOrderRequest request, Map<Long, Sku> skus, Instant now,
            String idempotencyKey, String requestHash) {
        Order order = new Order();
        order.orderNo = OrderNumbers.next(now);
        order.memberId = memberId;
        order.status = OrderStatus.PENDING_PAYMENT;
        order.createdAt = now;
        order.payDeadline = now.plus(config.payTimeout());
        order.totalAmount = request.items().stream()
                .map(line -> skus.get(line.skuId()).price.multiply(BigDecimal.valueOf(line.quantity())))
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        order.idempotencyKey = idempotencyKey;
        order.requestHash = requestHash;
        return order;
    }

    private static OrderItem newItem(Order order, Sku sku, PlaceOrderRequest.Line line) {
        OrderItem item = new OrderItem();
        item.orderId = order.id;
        item.skuId = sku.id;
        item.skuName = sku.name;
        item.unitPrice = sku.price;
        item.quantity = line.quantity();
        return item;
    }

    private void checkLimits(PlaceOrderRequest request) {
        if (request.items().size() > config.maxLines()) {
            throw invalid("items", "at most " + config.maxLines() + " lines per order");
        }
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < request.items().size(); i++) {
            PlaceOrderRequest.Line line = request.items().get(i);
            if (line.quantity() > config.maxQuantity()) {
                throw invalid("items[" + i + "].quantity", "must be at most " + config.maxQuantity());
            }
            if (!seen.add(line.skuId())) {
                throw invalid("items[" + i + "].skuId", "SKU " + line.skuId() + " appears in more than one line");
            }
        }
    }

    private static ProblemException invalid(String field, String message) {
        return new ProblemException(400, "Invalid request", "The request has invalid fields",
                Map.of("violations", List.of(Map.of("field", field, "message", message))));
    }

    /** Identifies the request's content, so that a reused key with a different body is refused. */
    private static String hash(PlaceOrderRequest request) {
        String canonical = request.items().stream()
                .sorted(Comparator.comparing(PlaceOrderRequest.Line::skuId))
                .map(line -> line.skuId() + "x" + line.quantity())
                .collect(Collectors.joining(","));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
