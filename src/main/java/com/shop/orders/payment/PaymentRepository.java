package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepository;
import io.smallrye.mutiny.Uni;

@ApplicationScoped
public class PaymentRepository implements PanacheRepository<Payment> {

    public Uni<Payment> findByOrderId(long orderId) {
        return find("orderId", orderId).firstResult();
    }

    /** Whether the order has a payment as committed now (a locking read: a concurrent insert waits). */
    public Uni<Boolean> existsForOrderLocked(long orderId) {
        return find("orderId", orderId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult().map(p -> p != null);
    }

    public Uni<Boolean> existsForOrder(long orderId) {
        return count("orderId", orderId).map(n -> n > 0);
    }

    public Uni<Integer> markPaid(long orderId, String tradeNo, BigDecimal paidAmount, Instant paidAt) {
        return update("status = ?1, tradeNo = ?2, paidAmount = ?3, paidAt = ?4 where orderId = ?5 and status = ?6",
                PaymentStatus.PAID, tradeNo, paidAmount, paidAt, orderId, PaymentStatus.AWAITING_PAYMENT);
    }

    /**
     * Money a wallet took for an order that had been closed: the payment as paid, so that its refund has something to
     * give back. Creates the row when the order has none (its precreate answer never arrived); keeps one that is
     * paid already. In the caller's transaction, with the order's row locked.
     */
    public Uni<Payment> recordLatePayment(long orderId, String orderNo, String tradeNo, BigDecimal amount,
            Instant paidAt) {
        return findByOrderId(orderId).chain(found -> {
            if (found != null && found.status != PaymentStatus.AWAITING_PAYMENT) {
                return Uni.createFrom().item(found);
            }
            Payment payment = found != null ? found : new Payment();
            if (found == null) {
                payment.orderId = orderId;
                payment.orderNo = orderNo;
                payment.amount = amount;
                payment.createdAt = paidAt;
            }
            payment.status = PaymentStatus.PAID;
            payment.tradeNo = tradeNo;
            payment.paidAmount = amount;
            payment.paidAt = paidAt;
            return found != null ? Uni.createFrom().item(payment) : persist(payment);
        });
    }

    /**
     * A refund the wallet made: added to what the payment gave back; REFUNDED once that is all of it. A locking read: the
     * total as committed now, whatever the transaction read before (under REPEATABLE READ a plain read would see the
     * snapshot of the transaction's first read, and concurrent refunds would overwrite each other's amounts).
     */
    public Uni<Payment> addRefund(long orderId, BigDecimal amount, Instant refundedAt) {
        return find("orderId", orderId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult().invoke(payment -> {
            payment.refundAmount = payment.refundAmount == null ? amount : payment.refundAmount.add(amount);
            payment.refundedAt = refundedAt;
            BigDecimal paid = payment.paidAmount != null ? payment.paidAmount : payment.amount;
            if (payment.refundAmount.compareTo(paid) >= 0) {
                payment.status = PaymentStatus.REFUNDED;
            }
        });
    }
}
