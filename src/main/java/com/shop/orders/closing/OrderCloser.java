package com.shop.orders.closing;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.inventory.StockLine;
import com.shop.orders.inventory.StockService;
import com.shop.orders.order.CloseReason;
import com.shop.orders.order.Order;
import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderItem;
import com.shop.orders.order.OrderMetrics;
import com.shop.orders.order.OrderNotFoundException;
import com.shop.orders.order.OrderQueries;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.order.OrderTransition;
import com.shop.orders.order.OrderTransitions;
import com.shop.orders.order.OrderView;
import com.shop.orders.order.PurchaseAllowances;
import com.shop.orders.payment.TradeCloser;
import com.shop.orders.sql.Deadlock;
import com.shop.orders.web.ProblemException;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The one way an unpaid order is closed, whether the member cancels it or its pay deadline passed: first
 * make sure none of its trades can take more money (if one turns out paid, the order is paid instead),
 * then PENDING_PAYMENT to CLOSED, give back the member's purchase allowances and release the reserved stock in
 * one transaction. Redelivered messages,
 * concurrent sweeps and replicas lose the conditional update and change nothing.
 */
@ApplicationScoped
public class OrderCloser {

    private static final Logger LOG = Logger.getLogger(OrderCloser.class);
    private static final int DEADLOCK_RETRIES = 3;

    /** What closes the order: the timeline says so. */
    public enum By {
        MEMBER, EXPIRY_MESSAGE, SWEEP
    }

    public enum Outcome {
        CLOSED,
        /** Closed or paid by someone else: nothing to do. */
        ALREADY_DECIDED,
        /** A wallet had the money: the order is PAID now. */
        PAID,
        /** The deadline has not passed yet. */
        NOT_DUE
    }

    private final OrderRepository orders;
    private final OrderQueries queries;
    private final StockService stock;
    private final PurchaseAllowances allowances;
    private final TradeCloser trades;
    private final OrderTransitions transitions;
    private final OrderMetrics metrics;
    private final OrderEvents events;
    private final Clock clock;

    public OrderCloser(OrderRepository orders, OrderQueries queries, StockService stock,
            PurchaseAllowances allowances, TradeCloser trades, OrderTransitions transitions, OrderMetrics metrics,
            OrderEvents events, Clock clock) {
        this.orders = orders;
        this.queries = queries;
        this.stock = stock;
        this.allowances = allowances;
        this.trades = trades;
        this.transitions = transitions;
        this.metrics = metrics;
        this.events = events;
        this.clock = clock;
    }

    /** Closes the member's unpaid order; 409 when it is paid or closed, also when that happened meanwhile. */
    public Uni<OrderView> cancelByMember(long id, String memberId) {
        return Panache.withSession(() -> orders.findOwned(id, memberId))
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(id))
                .chain(order -> order.isPending()
                        ? close(order, CloseReason.MEMBER_CANCELLED, By.MEMBER)
                        : Uni.createFrom().failure(notCancellable(id, order.status)))
                .chain(outcome -> outcome == Outcome.CLOSED
                        ? queries.findOwned(id, memberId)
                        : decidedMeanwhile(id));
    }

    /** Closes the order if it is still unpaid and its deadline has passed. */
    public Uni<Outcome> closeIfOverdue(String orderNo, By by) {
        return Panache.withSession(() -> orders.findByOrderNo(orderNo)).chain(order -> {
            if (order == null || !order.isPending()) {
                return Uni.createFrom().item(Outcome.ALREADY_DECIDED);
            }
            return order.isPastDeadline(clock.instant())
                    ? close(order, CloseReason.EXPIRED, by)
                    : Uni.createFrom().item(Outcome.NOT_DUE);
        });
    }

    private Uni<Outcome> close(Order order, CloseReason reason, By by) {
        return trades.close(order.id).chain(closing -> closing.closure() == TradeCloser.Closure.PAID
                ? Uni.createFrom().item(Outcome.PAID)
                : closeAndRelease(order, reason, by, closing.offered()))
                // A QR code was offered while we closed: start over, now its trade is closed (voided) first.
                .onFailure(QrCodeOfferedMeanwhile.class).recoverWithUni(() -> close(order, reason, by));
    }

    /**
     * The conditional update and the stock release in one transaction. A payment request may have stored a QR code
     * since the trades were closed: the order's row is locked by our update and a code is stored only under that lock
     * while the order is pending, so counting them again now settles it.
     */
    private Uni<Outcome> closeAndRelease(Order order, CloseReason reason, By by, int offered) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> orders.markClosed(order.id, reason, now)
                .chain(won -> !won ? Uni.createFrom().item(Optional.<List<Long>>empty())
                        : trades.offeredSince(order.id, offered)
                                .chain(offeredSince -> offeredSince
                                        ? Uni.createFrom().<Optional<List<Long>>>failure(new QrCodeOfferedMeanwhile())
                                        : events.record(order.orderNo, OrderEvents.Kind.CLOSED, reason.name(),
                                                "by " + by.name().toLowerCase().replace('_', ' '))
                                                .chain(() -> release(order)).map(Optional::of))))
                // InnoDB rolled the whole transaction back: a release racing a new bucket layout can deadlock.
                .onFailure(Deadlock::isCause).retry().atMost(DEADLOCK_RETRIES)
                .map(released -> {
                    released.ifPresent(skuIds -> closed(order, reason, now, skuIds));
                    return released.isPresent() ? Outcome.CLOSED : Outcome.ALREADY_DECIDED;
                });
    }

    /** Gives back the reserved stock and the member's allowances (in StockService's lock order); answers the SKUs. */
    private Uni<List<Long>> release(Order order) {
        return orders.items(order.id).chain(items -> {
            List<StockLine> lines = items.stream().map(OrderItem::stockLine).toList();
            return stock.releaseAll(items.stream().map(OrderItem::heldStock).toList(),
                    () -> allowances.giveBackClosed(order.memberId, lines))
                    .replaceWith(lines.stream().map(StockLine::skuId).toList());
        });
    }

    private void closed(Order order, CloseReason reason, Instant at, List<Long> releasedSkuIds) {
        metrics.closed(reason, order.payDeadline, at);
        transitions.announce(OrderTransition.closed(order, reason, at, releasedSkuIds));
        LOG.infof("Order %s closed (%s)", order.orderNo, reason);
    }

    /** Rolls the close back: the order got a QR code after its trade was looked at. */
    private static final class QrCodeOfferedMeanwhile extends RuntimeException {
        QrCodeOfferedMeanwhile() {
            super("QR code offered while the order was being closed", null, false, false);
        }
    }

    /** The member lost a race (paid or closed by someone else a moment ago): say what it is now. */
    private Uni<OrderView> decidedMeanwhile(long id) {
        return Panache.withSession(() -> orders.statusOf(id))
                .chain(status -> Uni.createFrom().failure(notCancellable(id, status)));
    }

    private static ProblemException notCancellable(long id, OrderStatus status) {
        return new ProblemException(409, "Order not cancellable", "Order " + id + " is " + status,
                Map.of("orderStatus", status.name()));
    }
}
