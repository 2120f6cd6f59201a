package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.events.OrderEvents;
import com.shop.orders.events.OrderPaidEvent;
import com.shop.orders.inventory.StockService;
import com.shop.orders.order.Order;
import com.shop.orders.order.OrderItem;
import com.shop.orders.order.OrderMetrics;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Applies a payment that Alipay has confirmed (signed notify or trade query). Exactly one caller
 * moves the order from PENDING_PAYMENT to PAID and deducts its stock; money paid for an order
 * that was closed in the meantime is refunded, and the order stays closed.
 */
@ApplicationScoped
public class PaymentConfirmation {

    private static final Logger LOG = Logger.getLogger(PaymentConfirmation.class);

    public enum Outcome {
        PAID_NOW,
        ALREADY_PAID,
        REFUNDED
    }

    /** Where the payment became known: the async notify or a trade query. */
    public enum Source {
        NOTIFY,
        QUERY
    }

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final StockService stock;
    private final OrderEvents events;
    private final AlipayGateway alipay;
    private final OrderMetrics orderMetrics;
    private final MeterRegistry registry;
    private final Clock clock;

    public PaymentConfirmation(OrderRepository orders, PaymentRepository payments, StockService stock,
            OrderEvents events, AlipayGateway alipay, OrderMetrics orderMetrics, MeterRegistry registry, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.stock = stock;
        this.events = events;
        this.alipay = alipay;
        this.orderMetrics = orderMetrics;
        this.registry = registry;
        this.clock = clock;
    }

    public Uni<Outcome> confirm(String orderNo, String tradeNo, BigDecimal amount, Source source) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> orders.findByOrderNo(orderNo)
                .onItem().ifNull().failWith(() -> new IllegalArgumentException("No order " + orderNo))
                .chain(order -> orders.markPaid(order.id, now)
                        .chain(won -> won
                                ? recordPayment(order, tradeNo, amount, now, source).replaceWith(Outcome.PAID_NOW)
                                : orders.reload(order).map(PaymentConfirmation::closedOrAlreadyPaid))))
                .chain(outcome -> outcome == Outcome.REFUNDED ? refund(orderNo, tradeNo, amount) : Uni.createFrom().item(outcome))
                .invoke(outcome -> registry.counter("payments.confirmed", "source", source.name(), "outcome",
                        outcome.name()).increment());
    }

    private Uni<Void> recordPayment(Order order, String tradeNo, BigDecimal amount, Instant paidAt, Source source) {
        return orders.items(order.id)
                .chain(items -> stock.deductAll(items.stream().map(OrderItem::stockLine).toList()))
                .chain(() -> payments.markPaid(order.id, tradeNo, amount, paidAt))
                .chain(() -> events.paid(new OrderPaidEvent(order.id, order.orderNo, order.memberId, amount, tradeNo,
                        paidAt, source.name())))
                .invoke(() -> orderMetrics.paid())
                .invoke(() -> LOG.infof("Order %s paid (%s, trade %s)", order.orderNo, source, tradeNo));
    }

    /** Lost the race: either someone else recorded this payment, or the order was closed first. */
    private static Outcome closedOrAlreadyPaid(Order order) {
        return order.status == OrderStatus.CLOSED ? Outcome.REFUNDED : Outcome.ALREADY_PAID;
    }

    /** The request number is fixed per order, so a repeated refund is a no-op at Alipay. */
    private Uni<Outcome> refund(String orderNo, String tradeNo, BigDecimal amount) {
        LOG.warnf("Order %s was paid after it had been closed: refunding %s", orderNo, amount);
        return alipay.refund(orderNo, amount, orderNo + "-refund")
                .chain(() -> Panache.withTransaction(() -> orders.findByOrderNo(orderNo)
                        .chain(order -> payments.markRefunded(order.id, tradeNo, amount, clock.instant()))))
                .invoke(() -> registry.counter("payments.refunded").increment())
                .replaceWith(Outcome.REFUNDED);
    }
}
