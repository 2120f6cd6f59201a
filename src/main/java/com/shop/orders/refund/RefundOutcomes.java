package com.shop.orders.refund;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import org.jboss.logging.Logger;

import com.shop.orders.events.OrderRefundedEvent;
import com.shop.orders.events.Outbox;
import com.shop.orders.inventory.StockLine;
import com.shop.orders.inventory.StockRestocked;
import com.shop.orders.inventory.StockService;
import com.shop.orders.order.Order;
import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.order.PurchaseAllowances;
import com.shop.orders.payment.PaymentRepository;
import com.shop.orders.payment.PaymentStatus;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.resilience.Backoff;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Records what the wallet did with a refund. Each outcome is a conditional update of a PENDING refund, so exactly one
 * caller records it however many attempts and replicas learn it. A refund made adds to its trade's refunded total
 * (the order becomes REFUNDED when that is all of the money that paid it), returns its restock lines to stock and to the member's
 * purchase limits, and writes the "order refunded" event, in one transaction. Lock order as everywhere: the order,
 * the payment, the refund, the purchase allowances, the SKUs.
 */
@ApplicationScoped
public class RefundOutcomes {

    private static final Logger LOG = Logger.getLogger(RefundOutcomes.class);
    /** The wallet closed the refund (its query or notify says so): refused for good. */
    static final RefundAnswer CLOSED = new RefundAnswer(false, "CLOSED", null, "closed by the wallet");
    /** Why an ABNORMAL refund waits. */
    static final String ABNORMAL_REASON = "the wallet could not pay it back to the buyer's account: "
            + "to be handled in its merchant console";

    /** A refund recorded as made, and the SKUs it put back on sale. */
    record Completed(Refund refund, List<Long> restockedSkuIds) {
    }

    private final RefundRepository refunds;
    private final RefundBook book;
    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final StockService stock;
    private final PurchaseAllowances allowances;
    private final Outbox outbox;
    private final RefundMetrics metrics;
    private final Event<StockRestocked> restocked;
    private final Backoff backoff;
    private final Duration abnormalCheckEvery;
    private final OrderEvents events;
    private final Clock clock;

    public RefundOutcomes(RefundRepository refunds, RefundBook book, OrderRepository orders, PaymentRepository payments,
            StockService stock, PurchaseAllowances allowances, Outbox outbox, RefundMetrics metrics,
            Event<StockRestocked> restocked, RefundConfig config, OrderEvents events, Clock clock) {
        this.refunds = refunds;
        this.book = book;
        this.orders = orders;
        this.payments = payments;
        this.stock = stock;
        this.allowances = allowances;
        this.outbox = outbox;
        this.metrics = metrics;
        this.restocked = restocked;
        this.backoff = new Backoff(config.retryBackoff(), config.retryBackoffMax());
        this.abnormalCheckEvery = config.abnormalCheckEvery();
        this.events = events;
        this.clock = clock;
    }

    /**
     * The wallet made the refund (its answer, or the refund query, says so). The refund is read before the order's lock
     * (it names the order); only its unchanging fields are used, and its status is guarded by the conditional update.
     */
    public Uni<Void> made(long refundId) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> refunds.findById(refundId)
                .chain(refund -> orders.findForUpdate(refund.orderId)
                        .chain(order -> refunds.markSucceeded(refundId, now).chain(won -> won
                                ? complete(order, refund, now)
                                : Uni.createFrom().nullItem()))))
                .invoke(this::announce)
                .replaceWithVoid();
    }

    /**
     * A refund Alipay has made already (its cancel answer said so, or its refund query): recorded and completed in
     * the caller's transaction, with the order locked. Announce the answer with {@link #announce} after the commit.
     */
    Uni<Completed> recordMade(Order order, RefundBook.NewRefund spec, Instant at) {
        return book.open(order, spec, at)
                .call(refund -> refunds.markSucceeded(refund.id, at))
                .chain(refund -> complete(order, refund, at));
    }

    /**
     * In the caller's transaction, with the order locked and the refund just marked SUCCEEDED: what a refund made
     * changes. Announce the answer with {@link #announce} after the commit.
     */
    Uni<Completed> complete(Order order, Refund refund, Instant at) {
        // As the conditional update wrote them, so that flushing the entity keeps them.
        refund.status = RefundStatus.SUCCEEDED;
        refund.completedAt = at;
        refund.nextAttemptAt = null;
        refund.lastError = null;
        return events.record(order.orderNo, OrderEvents.Kind.REFUND, RefundStatus.SUCCEEDED.name(),
                RefundBook.describe(refund))
                .chain(() -> payments.addRefund(refund.outTradeNo, refund.amount, at))
                .chain(payment -> {
                    boolean full = payment.status == PaymentStatus.REFUNDED;
                    // Only the trade that paid the order refunds the order; a second trade's money is its own.
                    return (full && payment.accepted && order.status == OrderStatus.PAID
                            ? orders.markRefunded(order.id, at)
                            : Uni.createFrom().item(Boolean.FALSE))
                            .chain(() -> restock(order, refund))
                            .call(() -> outbox.refunded(new OrderRefundedEvent(order.id, order.orderNo,
                                    order.memberId, refund.id, refund.outRequestNo, refund.amount,
                                    payment.refundAmount, full, refund.cause.name(), at)));
                })
                .map(skuIds -> new Completed(refund, skuIds));
    }

    private Uni<List<Long>> restock(Order order, Refund refund) {
        return refunds.restockLines(refund.id).chain(lines -> {
            List<StockLine> units = lines.stream().map(line -> new StockLine(line.skuId, line.quantity)).toList();
            return stock.restockAll(units, () -> allowances.giveBackRefunded(order.memberId, units))
                    .replaceWith(units.stream().map(StockLine::skuId).toList());
        });
    }

    /** After the commit: counted, and SKUs that were sold out are on sale again. */
    void announce(Completed completed) {
        if (completed == null) {
            return;
        }
        Refund refund = completed.refund();
        metrics.completed(refund.cause, RefundStatus.SUCCEEDED);
        completed.restockedSkuIds().forEach(skuId -> restocked.fire(new StockRestocked(skuId)));
        LOG.infof("Refund %s of order %s made: %s (%s)", refund.outRequestNo, refund.orderNo, refund.amount,
                refund.cause);
    }

    /** The wallet refused the refund for good: nothing moved, the amount can be refunded again. */
    public Uni<Void> refused(Refund refund, RefundAnswer answer) {
        String code = answer.subCode() != null ? answer.subCode() : answer.code();
        return Panache.withTransaction(() -> refunds.markFailed(refund.id, code, bounded(answer.reason(), 256),
                clock.instant())
                .call(won -> won ? events.record(refund.orderNo, OrderEvents.Kind.REFUND, RefundStatus.FAILED.name(),
                        RefundBook.describe(refund) + ", the wallet: " + code) : Uni.createFrom().voidItem()))
                .invoke(won -> {
                    if (won) {
                        metrics.completed(refund.cause, RefundStatus.FAILED);
                        LOG.warnf("The wallet refused refund %s of order %s (%s): %s", refund.outRequestNo,
                                refund.orderNo, code, answer.reason());
                    }
                })
                .replaceWithVoid();
    }

    /**
     * The wallet took the refund but cannot pay it back until a person acts in its merchant console: ABNORMAL, in the
     * timeline once, and asked after again at the slow interval (never sent again: the same number changes nothing).
     * Still ABNORMAL when asked again: only the next check moves.
     */
    public Uni<Void> abnormal(Refund refund, String reason) {
        Instant next = clock.instant().plus(abnormalCheckEvery);
        return Panache.withTransaction(() -> refunds.markAbnormal(refund.id, bounded(reason, 500), next)
                .call(won -> won
                        ? events.record(refund.orderNo, OrderEvents.Kind.REFUND, RefundStatus.ABNORMAL.name(),
                                RefundBook.describe(refund) + ", the wallet: " + reason)
                        : refunds.stillAbnormal(refund.id, next)))
                .invoke(won -> {
                    if (won) {
                        metrics.abnormal(refund.cause);
                        LOG.errorf("Refund %s of order %s is ABNORMAL: %s", refund.outRequestNo, refund.orderNo,
                                reason);
                    }
                })
                .replaceWithVoid();
    }

    /** The attempt did not learn what the wallet did: the settler asks again after the backoff. */
    public Uni<Void> unknown(Refund refund, Throwable failure) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> refunds.findById(refund.id)
                .chain(current -> refunds.markUnknown(refund.id, bounded(failure.toString(), 500),
                        now.plus(backoff.after(current.attempts + 1)))))
                .invoke(() -> {
                    metrics.unknown(refund.cause);
                    LOG.warnf("Refund %s of order %s: the wallet's outcome not known yet (%s)", refund.outRequestNo,
                            refund.orderNo, failure.toString());
                })
                .replaceWithVoid();
    }

    private static String bounded(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
