package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheRepository;
import io.smallrye.mutiny.Uni;

/** An order's trades, one per channel. Status changes are conditional updates: one writer records each. */
@ApplicationScoped
public class PaymentRepository implements PanacheRepository<Payment> {

    public Uni<List<Payment>> ofOrder(long orderId) {
        return list("orderId = ?1 order by id", orderId);
    }

    public Uni<List<Payment>> ofOrder(String orderNo) {
        return list("orderNo = ?1 order by id", orderNo);
    }

    public Uni<Payment> findByChannel(long orderId, String channel) {
        return find("orderId = ?1 and channel = ?2", orderId, channel).firstResult();
    }

    public Uni<Payment> findByOutTradeNo(String outTradeNo) {
        return find("outTradeNo", outTradeNo).firstResult();
    }

    /** The trade as committed now (a locking read): what a transaction that read it before may not see. */
    public Uni<Payment> findByIdLocked(long id) {
        return find("id", id).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /** The trade whose money paid the order, if any. */
    public Uni<Payment> findAccepted(long orderId) {
        return find("orderId = ?1 and accepted = true", orderId).firstResult();
    }

    /** How many of the order's trades have a QR code stored, as committed now (a locking read). */
    public Uni<Integer> countOfferedLocked(long orderId) {
        return find("orderId = ?1 and qrCode is not null", orderId).withLock(LockModeType.PESSIMISTIC_WRITE).list()
                .map(List::size);
    }

    /** The QR code of a trade, stored once: a second answer of the wallet keeps the first. */
    public Uni<Boolean> storeQrCode(long paymentId, String qrCode, byte[] qrPng) {
        return update("qrCode = ?1, qrPng = ?2 where id = ?3 and qrCode is null", qrCode, qrPng, paymentId)
                .map(rows -> rows == 1);
    }

    /** The trade whose money pays the order, in the transaction that moves the order to PAID. */
    public Uni<Integer> markAccepted(long paymentId, String tradeNo, BigDecimal paidAmount, Instant paidAt) {
        return update("status = ?1, accepted = true, tradeNo = ?2, paidAmount = ?3, paidAt = ?4 where id = ?5",
                PaymentStatus.PAID, tradeNo, paidAmount, paidAt, paymentId);
    }

    /** Closed at its wallet while nobody had paid it. */
    public Uni<Integer> markClosed(long paymentId) {
        return update("status = ?1 where id = ?2 and status = ?3", PaymentStatus.CLOSED, paymentId,
                PaymentStatus.AWAITING_PAYMENT);
    }

    /**
     * Money a wallet took on a trade that did not pay the order (the order had been closed, or another trade paid it):
     * the trade as paid, so that its refund has something to give back. Creates the row when there is none (an order
     * of an earlier version whose precreate answer never arrived: its Alipay trade is numbered as the order); keeps
     * one that is paid already. In the caller's transaction, with the order's row locked.
     */
    public Uni<Payment> recordUnacceptedPayment(Payment found, long orderId, String orderNo, String channel,
            String tradeNo, BigDecimal amount, Instant paidAt) {
        if (found != null && (found.status == PaymentStatus.PAID || found.status == PaymentStatus.REFUNDED)) {
            return Uni.createFrom().item(found);
        }
        Payment payment = found != null ? found : new Payment();
        if (found == null) {
            payment.orderId = orderId;
            payment.orderNo = orderNo;
            payment.channel = channel;
            payment.outTradeNo = orderNo;
            payment.amount = amount;
            payment.createdAt = paidAt;
        }
        payment.status = PaymentStatus.PAID;
        payment.tradeNo = tradeNo;
        payment.paidAmount = amount;
        payment.paidAt = paidAt;
        return found != null ? Uni.createFrom().item(payment) : persist(payment);
    }

    /**
     * A refund the wallet made: added to what the trade gave back; REFUNDED once that is all of it. A locking read: the
     * total as committed now, whatever the transaction read before (under REPEATABLE READ a plain read would see the
     * snapshot of the transaction's first read, and concurrent refunds would overwrite each other's amounts).
     */
    public Uni<Payment> addRefund(String outTradeNo, BigDecimal amount, Instant refundedAt) {
        return find("outTradeNo", outTradeNo).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult().invoke(payment -> {
            payment.refundAmount = payment.refundAmount == null ? amount : payment.refundAmount.add(amount);
            payment.refundedAt = refundedAt;
            BigDecimal paid = payment.paidAmount();
            if (payment.refundAmount.compareTo(paid) >= 0) {
                payment.status = PaymentStatus.REFUNDED;
            }
        });
    }
}
