package com.shop.orders.refund;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.order.Order;
import com.shop.orders.order.OrderEvents;

import io.smallrye.mutiny.Uni;

/**
 * Writes a new refund, PENDING, with its request number and restock lines; in the caller's transaction, with the
 * order's row locked, so that what the order's refunds take of its payment is read and added to by one writer at a
 * time (on every replica).
 */
@ApplicationScoped
public class RefundBook {

    /** What a new refund is. {@code outRequestNo} null: Alipay made it by itself and names it nothing. */
    record NewRefund(RefundCause cause, String outTradeNo, String outRequestNo, BigDecimal amount, String reason, String idempotencyKey,
            String requestHash, List<RefundRequest.Restock> restock) {
    }

    private final RefundConfig config;
    private final OrderEvents events;

    public RefundBook(RefundConfig config, OrderEvents events) {
        this.config = config;
        this.events = events;
    }

    /** How the timeline names a refund: its request number (or cause), amount and cause. */
    static String describe(Refund refund) {
        return (refund.outRequestNo == null ? "refund" : refund.outRequestNo) + ": " + refund.amount.toPlainString()
                + " (" + refund.cause + ")";
    }

    Uni<Refund> open(Order order, NewRefund spec, Instant now) {
        return open(order, spec, now, now);
    }

    /**
     * As {@link #open(Order, NewRefund, Instant)}, to be sent at {@code sendAt}: by the caller now, or, when later,
     * by the settler then (its refund query finds nothing, and it sends).
     */
    Uni<Refund> open(Order order, NewRefund spec, Instant now, Instant sendAt) {
        Refund refund = new Refund();
        refund.orderId = order.id;
        refund.orderNo = order.orderNo;
        refund.outTradeNo = spec.outTradeNo();
        refund.outRequestNo = spec.outRequestNo();
        refund.cause = spec.cause();
        refund.amount = spec.amount();
        refund.reason = spec.reason();
        refund.status = RefundStatus.PENDING;
        refund.idempotencyKey = spec.idempotencyKey();
        refund.requestHash = spec.requestHash();
        refund.requestedAt = now;
        refund.sendAt = sendAt;
        // Left to the caller, which sends it now; the settler takes it only if that attempt never reports back. One
        // to be sent later is the settler's from then on.
        refund.nextAttemptAt = sendAt.isAfter(now) ? sendAt : now.plus(config.claimLease());
        return refund.<Refund>persist().call(() -> persistRestock(refund, spec.restock()))
                .call(() -> events.record(order.orderNo, OrderEvents.Kind.REFUND, RefundStatus.PENDING.name(),
                        describe(refund)));
    }

    private static Uni<Void> persistRestock(Refund refund, List<RefundRequest.Restock> restock) {
        if (restock.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<RestockLine> lines = restock.stream().map(line -> {
            RestockLine restocked = new RestockLine();
            restocked.refundId = refund.id;
            restocked.skuId = line.skuId();
            restocked.quantity = line.quantity();
            return restocked;
        }).toList();
        return RestockLine.persist(lines);
    }
}
