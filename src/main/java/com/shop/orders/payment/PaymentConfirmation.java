package com.shop.orders.payment;

import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.events.OrderPaidEvent;
import com.shop.orders.events.Outbox;
import com.shop.orders.inventory.StockService;
import com.shop.orders.order.Order;
import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderItem;
import com.shop.orders.order.OrderMetrics;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.order.OrderTransition;
import com.shop.orders.order.OrderTransitions;
import com.shop.orders.order.PurchaseAllowances;
import com.shop.orders.sql.Deadlock;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;

/**
 * Applies a payment that a wallet has confirmed (verified notify or trade query). The one place that decides
 * whether such a payment is accepted: the order must exist and the amount must be exactly its total.
 * Exactly one caller moves the order from PENDING_PAYMENT to PAID, deducts its stock and writes the "order
 * paid" event; money paid for an order that was closed meanwhile is refunded, and the order stays closed.
 */
@ApplicationScoped
// Created at start, not at first use, so that its meters exist (at zero) before the first event.
@Startup
public class PaymentConfirmation {

    private static final Logger LOG = Logger.getLogger(PaymentConfirmation.class);
    private static final int DEADLOCK_RETRIES = 3;

    public enum Outcome {
        PAID_NOW,
        ALREADY_PAID,
        /** The order had been closed: the money went back to the buyer. */
        REFUNDED,
        /** The wallet's amount is not the order's total: neither accepted nor ignored, someone must look. */
        AMOUNT_MISMATCH,
        UNKNOWN_ORDER
    }

    /** Where the payment became known: the async notify or a trade query. */
    public enum Source {
        NOTIFY,
        QUERY
    }

    private record Applied(Outcome outcome, Order order, Instant at) {
    }

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final StockService stock;
    private final PurchaseAllowances allowances;
    private final Outbox outbox;
    private final PaymentRefunds refunds;
    private final OrderTransitions transitions;
    private final OrderMetrics orderMetrics;
    private final OrderEvents events;
    private final MeterRegistry registry;
    private final Clock clock;

    public PaymentConfirmation(OrderRepository orders, PaymentRepository payments, StockService stock,
            PurchaseAllowances allowances, Outbox outbox, PaymentRefunds refunds, OrderTransitions transitions,
            OrderMetrics orderMetrics, OrderEvents events, MeterRegistry registry, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.stock = stock;
        this.allowances = allowances;
        this.outbox = outbox;
        this.refunds = refunds;
        this.transitions = transitions;
        this.orderMetrics = orderMetrics;
        this.events = events;
        this.registry = registry;
        this.clock = clock;
    }

    public Uni<Outcome> confirm(PaidTrade trade, Source source) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> orders.findByOrderNo(trade.outTradeNo())
                .chain(order -> apply(order, trade, source, now)))
                // InnoDB rolled the whole transaction back: a deduction racing a new bucket layout can deadlock.
                .onFailure(Deadlock::isCause).retry().atMost(DEADLOCK_RETRIES)
                .chain(applied -> afterCommit(applied, trade))
                .invoke(outcome -> registry.counter("payments.confirmed", "source", source.name(), "outcome",
                        outcome.name()).increment());
    }

    private Uni<Applied> apply(Order order, PaidTrade trade, Source source, Instant now) {
        if (order == null) {
            return Uni.createFrom().item(new Applied(Outcome.UNKNOWN_ORDER, null, now));
        }
        if (trade.amount() == null || trade.amount().compareTo(order.totalAmount) != 0) {
            return Uni.createFrom().item(new Applied(Outcome.AMOUNT_MISMATCH, order, now));
        }
        return orders.markPaid(order.id, now).chain(won -> won
                ? recordPayment(order, trade, source, now).replaceWith(new Applied(Outcome.PAID_NOW, order, now))
                : lostTheTransition(order, now));
    }

    private Uni<Void> recordPayment(Order order, PaidTrade trade, Source source, Instant paidAt) {
        return events.record(order.orderNo, OrderEvents.Kind.PAID, source.name(), "by the "
                + (source == Source.NOTIFY ? "notify" : "trade query") + ", trade " + trade.tradeNo())
                .chain(() -> orders.items(order.id))
                .chain(items -> stock.deductAll(items.stream().map(OrderItem::heldStock).toList(),
                        () -> allowances.giveBackPaid(order.memberId)))
                .chain(() -> payments.markPaid(order.id, trade.tradeNo(), trade.amount(), paidAt))
                .chain(() -> outbox.paid(new OrderPaidEvent(order.id, order.orderNo, order.memberId, trade.amount(),
                        trade.tradeNo(), paidAt, source.name())));
    }

    /** Someone else recorded this payment already, or the order was closed first (then the money goes back). */
    private Uni<Applied> lostTheTransition(Order order, Instant now) {
        return orders.statusOf(order.id).map(status -> new Applied(
                status == OrderStatus.CLOSED ? Outcome.REFUNDED : Outcome.ALREADY_PAID, order, now));
    }

    private Uni<Outcome> afterCommit(Applied applied, PaidTrade trade) {
        return switch (applied.outcome()) {
            case PAID_NOW -> {
                orderMetrics.paid();
                transitions.announce(OrderTransition.paid(applied.order(), applied.at()));
                LOG.infof("Order %s paid (trade %s)", trade.outTradeNo(), trade.tradeNo());
                yield Uni.createFrom().item(Outcome.PAID_NOW);
            }
            case REFUNDED -> refund(applied.order(), trade);
            case AMOUNT_MISMATCH -> {
                LOG.errorf("The wallet reports order %s paid with %s, its total is %s: not accepted", trade.outTradeNo(),
                        trade.amount(), applied.order().totalAmount);
                yield Uni.createFrom().item(Outcome.AMOUNT_MISMATCH);
            }
            default -> Uni.createFrom().item(applied.outcome());
        };
    }

    /** Once per order (the refund has a fixed request number): every further confirmation finds it recorded. */
    private Uni<Outcome> refund(Order order, PaidTrade trade) {
        return refunds.refundLatePayment(order, trade).replaceWith(Outcome.REFUNDED);
    }
}
