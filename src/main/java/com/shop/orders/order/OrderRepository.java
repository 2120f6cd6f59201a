package com.shop.orders.order;

import java.time.Instant;
import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import io.quarkus.hibernate.reactive.panache.PanacheQuery;
import io.quarkus.hibernate.reactive.panache.PanacheRepository;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;

/**
 * Every status transition is one conditional UPDATE on the current status; the affected row
 * count says whether this caller made the transition. Exactly one caller can win it.
 */
@ApplicationScoped
public class OrderRepository implements PanacheRepository<Order> {

    public Uni<Order> findByOrderNo(String orderNo) {
        return find("orderNo", orderNo).firstResult();
    }

    /**
     * The order as committed now, its row locked until the transaction ends (a transition of it waits). For a
     * write that is only allowed while the order is pending, such as storing the QR code it is offered.
     */
    public Uni<Order> findForUpdate(long id) {
        return find("id", id).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /** {@link #findForUpdate} by order number. */
    public Uni<Order> findByOrderNoForUpdate(String orderNo) {
        return find("orderNo", orderNo).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    public Uni<Order> findOwned(long id, String memberId) {
        return find("id = ?1 and memberId = ?2", id, memberId).firstResult();
    }

    public Uni<Order> findByIdempotencyKey(String memberId, String idempotencyKey) {
        return find("memberId = ?1 and idempotencyKey = ?2", memberId, idempotencyKey).firstResult();
    }

    public Uni<List<Order>> pageOwned(String memberId, OrderStatus status, int page, int size) {
        return ownedQuery(memberId, status).page(Page.of(page, size)).list();
    }

    public Uni<Long> countOwned(String memberId, OrderStatus status) {
        return ownedQuery(memberId, status).count();
    }

    public Uni<List<OrderItem>> items(long orderId) {
        return OrderItem.list("orderId = ?1 order by id", orderId);
    }

    public Uni<List<OrderItem>> items(Collection<Long> orderIds) {
        return OrderItem.list("orderId in ?1 order by id", orderIds);
    }

    public Uni<Boolean> markPaid(long id, Instant paidAt) {
        return update("status = ?1, paidAt = ?2 where id = ?3 and status = ?4",
                OrderStatus.PAID, paidAt, id, OrderStatus.PENDING_PAYMENT)
                .map(rows -> rows == 1);
    }

    public Uni<Boolean> markClosed(long id, CloseReason reason, Instant closedAt) {
        return update("status = ?1, closeReason = ?2, closedAt = ?3 where id = ?4 and status = ?5",
                OrderStatus.CLOSED, reason, closedAt, id, OrderStatus.PENDING_PAYMENT)
                .map(rows -> rows == 1);
    }

    /** A paid order whose payment has been refunded in full. */
    public Uni<Boolean> markRefunded(long id, Instant refundedAt) {
        return update("status = ?1, refundedAt = ?2 where id = ?3 and status = ?4",
                OrderStatus.REFUNDED, refundedAt, id, OrderStatus.PAID)
                .map(rows -> rows == 1);
    }

    /** The status as stored now, for a caller whose conditional update found the order no longer pending. */
    public Uni<OrderStatus> statusOf(long id) {
        return getSession().chain(session -> session
                .createSelectionQuery("select status from Order where id = ?1", OrderStatus.class)
                .setParameter(1, id)
                .getSingleResultOrNull());
    }

    /** The trace that placed the order (W3C traceparent), null when it was not kept or there is no such order. */
    public Uni<String> traceParentOf(String orderNo) {
        return getSession().chain(session -> session
                .createSelectionQuery("select traceParent from Order where orderNo = ?1", String.class)
                .setParameter(1, orderNo)
                .getSingleResultOrNull());
    }

    private PanacheQuery<Order> ownedQuery(String memberId, OrderStatus status) {
        Sort newestFirst = Sort.descending("id");
        return status == null
                ? find("memberId", newestFirst, memberId)
                : find("memberId = ?1 and status = ?2", newestFirst, memberId, status);
    }
}
