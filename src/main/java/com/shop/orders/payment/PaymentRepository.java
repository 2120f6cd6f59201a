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

    public Uni<Integer> markRefunded(long orderId, String tradeNo, BigDecimal refundAmount, Instant refundedAt) {
        return update("status = ?1, tradeNo = ?2, paidAmount = ?3, refundAmount = ?3, refundedAt = ?4"
                + " where orderId = ?5 and status <> ?1",
                PaymentStatus.REFUNDED, tradeNo, refundAmount, refundedAt, orderId);
    }
}
