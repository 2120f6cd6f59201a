package com.shop.orders.payment;

import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

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
 * Applies a payment that a wallet has confirmed (verified notify or trade query) on one of the order's trades. The
 * one place that decides whether such a payment is accepted: the order must exist and the amount must be exactly its
 * total. Exactly one caller, on one trade, moves the order from PENDING_PAYMENT to PAID, deducts its stock and writes
 * the "order paid" event; the order's other trades are then closed. Money paid on a trade of an order that was closed
 * meanwhile, or that another trade had paid already, is refunded in full, and the order stays as it is.
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
        /** Another trade of the order had paid it: this trade's money went back to the buyer. */
        DUPLICATE,
        /** The wallet's amount is not the order's total: neither accepted nor ignored, someone must look. */
        AMOUNT_MISMATCH,
        UNKNOWN_ORDER
    }

    /** Where the payment became known: the async notify or a trade query. */
    public enum Source {
        NOTIFY,
        QUERY
    }

    private record Applied(Outcome outcome, Order order, Payment payment, Instant at) {
    }

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final StockService stock;
    private final PurchaseAllowances allowances;
    private final Outbox outbox;
    private final PaymentRefunds refunds;
    private final Event<TradeAccepted> accepted;
    private final OrderTransitions transitions;
    private final OrderMetrics orderMetrics;
    private final OrderEvents events;
    private final MeterRegistry registry;
    private final Clock clock;

    public PaymentConfirmation(OrderRepository orders, PaymentRepository payments, StockService stock,
            PurchaseAllowances allowances, Outbox outbox, PaymentRefunds refunds, Event<TradeAccepted> accepted,
            OrderTransitions transitions,
            OrderMetrics orderMetrics, OrderEvents events, MeterRegistry registry, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.stock = stock;
        this.allowances = allowances;
        this.outbox = outbox;
        this.refunds = refunds;
        this.accepted = accepted;
        this.transitions = transitions;
        this.orderMetrics = orderMetrics;
        this.events = events;
        this.registry = registry;
        this.clock = clock;
    }

    public Uni<Outcome> confirm(PaidTrade trade, Source source) {
        Instant now = clock.instant();
        // The trade's order, read apart from the transaction: the trade's state is read there, locked, after the order.
        return Panache.withSession(() -> payments.findByOutTradeNo(trade.outTradeNo()))
                .chain(recorded -> Panache.withTransaction(() -> orderOf(recorded, trade)
                        .chain(order -> apply(order, recorded, trade, source, now))))
                // InnoDB rolled the whole transaction back: a deduction racing a new bucket layout can deadlock.
                .onFailure(Deadlock::isCause).retry().atMost(DEADLOCK_RETRIES)
                .chain(applied -> afterCommit(applied, trade)
                        .invoke(outcome -> registry.counter("payments.confirmed", "channel", channelOf(applied),
                                "source", source.name(), "outcome", outcome.name()).increment()));
    }

    /** An order of an earlier version may have no trade recorded (its precreate answer was lost): Alipay's is its number. */
    private Uni<Order> orderOf(Payment recorded, PaidTrade trade) {
        return recorded != null ? orders.findById(recorded.orderId) : orders.findByOrderNo(trade.outTradeNo());
    }

    private Uni<Applied> apply(Order order, Payment recorded, PaidTrade trade, Source source, Instant now) {
        if (order == null) {
            return Uni.createFrom().item(new Applied(Outcome.UNKNOWN_ORDER, null, recorded, now));
        }
        if (trade.amount() == null || trade.amount().compareTo(order.totalAmount) != 0) {
            return Uni.createFrom().item(new Applied(Outcome.AMOUNT_MISMATCH, order, recorded, now));
        }
        return orders.markPaid(order.id, now).chain(won -> won
                ? recordPayment(order, recorded, trade, source, now)
                        .map(payment -> new Applied(Outcome.PAID_NOW, order, payment, now))
                : lostTheTransition(order, recorded, now));
    }

    private Uni<Payment> recordPayment(Order order, Payment recorded, PaidTrade trade, Source source, Instant paidAt) {
        String channel = recorded != null ? recorded.channel : PaymentChannels.ORIGINAL;
        return events.record(order.orderNo, OrderEvents.Kind.PAID, source.name(), "by the "
                + (source == Source.NOTIFY ? "notify" : "trade query") + ", " + channel + " trade " + trade.tradeNo())
                .chain(() -> orders.items(order.id))
                .chain(items -> stock.deductAll(items.stream().map(OrderItem::heldStock).toList(),
                        () -> allowances.giveBackPaid(order.memberId)))
                .chain(() -> accept(order, recorded, trade, paidAt))
                .call(() -> outbox.paid(new OrderPaidEvent(order.id, order.orderNo, order.memberId, trade.amount(),
                        trade.tradeNo(), paidAt, source.name())));
    }

    private Uni<Payment> accept(Order order, Payment recorded, PaidTrade trade, Instant paidAt) {
        if (recorded != null) {
            return payments.markAccepted(recorded.id, trade.tradeNo(), trade.amount(), paidAt).replaceWith(recorded);
        }
        return payments.recordUnacceptedPayment(null, order.id, order.orderNo, PaymentChannels.ORIGINAL,
                trade.tradeNo(), trade.amount(), paidAt).invoke(payment -> payment.accepted = true);
    }

    /**
     * Someone else recorded this payment already, or the order was closed first, or another of its trades paid it (then
     * this trade's money goes back). The trade is read now, locked: as committed by whoever won.
     */
    private Uni<Applied> lostTheTransition(Order order, Payment recorded, Instant now) {
        return orders.statusOf(order.id)
                .chain(status -> (recorded == null ? Uni.createFrom().<Payment>nullItem()
                        : payments.findByIdLocked(recorded.id))
                        .map(current -> new Applied(status == OrderStatus.CLOSED ? Outcome.REFUNDED
                                : current == null || current.accepted ? Outcome.ALREADY_PAID : Outcome.DUPLICATE,
                                order, current, now)));
    }

    private Uni<Outcome> afterCommit(Applied applied, PaidTrade trade) {
        return switch (applied.outcome()) {
            case PAID_NOW -> {
                orderMetrics.paid();
                transitions.announce(OrderTransition.paid(applied.order(), applied.at()));
                accepted.fire(new TradeAccepted(applied.order().id, applied.order().orderNo, trade.outTradeNo()));
                LOG.infof("Order %s paid (%s trade %s)", applied.order().orderNo, channelOf(applied), trade.tradeNo());
                yield Uni.createFrom().item(Outcome.PAID_NOW);
            }
            case REFUNDED -> refunds.refundLatePayment(applied.order(), applied.payment(), trade)
                    .replaceWith(Outcome.REFUNDED);
            case DUPLICATE -> refunds.refundDuplicatePayment(applied.order(), applied.payment(), trade)
                    .replaceWith(Outcome.DUPLICATE);
            case AMOUNT_MISMATCH -> {
                LOG.errorf("The wallet reports order %s paid with %s on trade %s, its total is %s: not accepted",
                        applied.order().orderNo, trade.amount(), trade.outTradeNo(), applied.order().totalAmount);
                yield Uni.createFrom().item(Outcome.AMOUNT_MISMATCH);
            }
            default -> Uni.createFrom().item(applied.outcome());
        };
    }

    private static String channelOf(Applied applied) {
        return applied.payment() != null ? applied.payment().channel : PaymentChannels.ORIGINAL;
    }
}
