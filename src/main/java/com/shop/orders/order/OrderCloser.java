package com.shop.orders.order;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.common.ProblemException;
import com.shop.orders.inventory.StockService;
import com.shop.orders.payment.TradeSettlement;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The one way an unpaid order is closed, whether the member cancels it or its pay deadline
 * passed: close the Alipay trade first (if it turns out paid, the order is paid instead), then
 * PENDING_PAYMENT to CLOSED and release the reserved stock in one transaction. Redelivered
 * messages and concurrent sweeps lose the conditional update and change nothing.
 */
@ApplicationScoped
public class OrderCloser {

    private static final Logger LOG = Logger.getLogger(OrderCloser.class);

    public enum Outcome {
        CLOSED,
        /** Someone else closed it, or it was paid: nothing to do. */
        ALREADY_DECIDED,
        /** Alipay had the money: the order is PAID now. */
        PAID,
        /** The deadline has not passed yet. */
        NOT_DUE
    }

    private final OrderRepository orders;
    private final OrderService orderService;
    private final StockService stock;
    private final TradeSettlement settlement;
    private final OrderMetrics metrics;
    private final Clock clock;

    public OrderCloser(OrderRepository orders, OrderService orderService, StockService stock,
            TradeSettlement settlement, OrderMetrics metrics, Clock clock) {
        this.orders = orders;
        this.orderService = orderService;
        this.stock = stock;
        this.settlement = settlement;
        this.metrics = metrics;
        this.clock = clock;
    }

    public Uni<OrderView> cancelByMember(long id, String memberId) {
        return Panache.withSession(() -> orders.findOwned(id, memberId))
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(id))
                .chain(order -> {
                    if (!order.isPending()) {
                        return Uni.createFrom().failure(notCancellable(order.id, order.status));
                    }
                    return close(order, CloseReason.MEMBER_CANCELLED);
                })
                .chain(outcome -> orderService.findOwned(id, memberId)
                        .invoke(view -> {
                            if (view.status() != OrderStatus.CLOSED) {
                                throw notCancellable(id, view.status());
                            }
                        }));
    }

    /** Closes the order if it is still unpaid and its deadline has passed. */
    public Uni<Outcome> closeIfOverdue(String orderNo) {
        return Panache.withSession(() -> orders.findByOrderNo(orderNo))
                .chain(order -> {
                    if (order == null || !order.isPending()) {
                        return Uni.createFrom().item(Outcome.ALREADY_DECIDED);
                    }
                    if (!order.isPastDeadline(clock.instant())) {
                        return Uni.createFrom().item(Outcome.NOT_DUE);
                    }
                    return close(order, CloseReason.TIMEOUT);
                });
    }

    private Uni<Outcome> close(Order order, CloseReason reason) {
        return settlement.closeTradeOrConfirmPaid(order)
                .chain(paid -> paid ? Uni.createFrom().item(Outcome.PAID) : closeAndRelease(order, reason));
    }

    private Uni<Outcome> closeAndRelease(Order order, CloseReason reason) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> orders.markClosed(order.id, reason, now)
                .chain(won -> !won
                        ? Uni.createFrom().item(Outcome.ALREADY_DECIDED)
                        : orders.items(order.id)
                                .chain(items -> stock.releaseAll(items.stream().map(OrderItem::stockLine).toList()))
                                .replaceWith(Outcome.CLOSED)))
                .invoke(outcome -> {
                    if (outcome == Outcome.CLOSED) {
                        metrics.closed(reason, order.payDeadline, now);
                        LOG.infof("Order %s closed (%s)", order.orderNo, reason);
                    }
                });
    }

    private static ProblemException notCancellable(long id, OrderStatus status) {
        return new ProblemException(409, "Order not cancellable", "Order " + id + " is " + status,
                Map.of("status", status.name()));
    }
}
