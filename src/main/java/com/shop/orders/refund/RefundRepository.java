package com.shop.orders.refund;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepository;
import io.smallrye.mutiny.Uni;

/**
 * Refunds and their restock lines. Outcomes are conditional updates on PENDING (or ABNORMAL, which is not final
 * either): exactly one caller records one.
 */
@ApplicationScoped
public class RefundRepository implements PanacheRepository<Refund> {

    /** The statuses an outcome can still be recorded on. */
    private static final List<RefundStatus> OPEN = List.of(RefundStatus.PENDING, RefundStatus.ABNORMAL);

    public Uni<Refund> findByKey(long orderId, String idempotencyKey) {
        return find("orderId = ?1 and idempotencyKey = ?2", orderId, idempotencyKey).firstResult();
    }

    public Uni<Refund> findByRequestNo(String outRequestNo) {
        return find("outRequestNo", outRequestNo).firstResult();
    }

    public Uni<Refund> findOfOrder(long orderId, long refundId) {
        return find("id = ?1 and orderId = ?2", refundId, orderId).firstResult();
    }

    public Uni<List<Refund>> ofOrder(long orderId) {
        return list("orderId = ?1 order by id", orderId);
    }

    public Uni<List<Refund>> ofOrders(Collection<Long> orderIds) {
        return list("orderId in ?1 order by id", orderIds);
    }

    public Uni<Long> countOfOrder(long orderId) {
        return count("orderId", orderId);
    }

    /** What the trade's refunds take of its payment: all but the failed ones. */
    public Uni<BigDecimal> committed(String outTradeNo) {
        return getSession().chain(session -> session
                .createSelectionQuery("select coalesce(sum(amount), 0) from Refund where outTradeNo = ?1 and status <> ?2",
                        BigDecimal.class)
                .setParameter(1, outTradeNo).setParameter(2, RefundStatus.FAILED)
                .getSingleResult());
    }

    /** Units per SKU that the order's refunds (but the failed ones) return to stock. */
    public Uni<Map<Long, Integer>> restockedOf(long orderId) {
        return getSession().chain(session -> session
                .createSelectionQuery("select l.skuId, sum(l.quantity) from RestockLine l, Refund r where r.id = l.refundId"
                        + " and r.orderId = ?1 and r.status <> ?2 group by l.skuId", Object[].class)
                .setParameter(1, orderId).setParameter(2, RefundStatus.FAILED)
                .getResultList())
                .map(rows -> {
                    Map<Long, Integer> units = new HashMap<>();
                    rows.forEach(row -> units.put((Long) row[0], ((Number) row[1]).intValue()));
                    return units;
                });
    }

    public Uni<List<RestockLine>> restockLines(long refundId) {
        return RestockLine.<RestockLine>list("refundId = ?1 order by skuId", refundId);
    }

    public Uni<List<RestockLine>> restockLines(Collection<Long> refundIds) {
        return refundIds.isEmpty() ? Uni.createFrom().item(List.of())
                : RestockLine.<RestockLine>list("refundId in ?1 order by skuId", refundIds);
    }

    /** Refunds of the trade that count against the wallet's limit on refunds per trade: all but the failed ones. */
    public Uni<Long> countOfTrade(String outTradeNo) {
        return count("outTradeNo = ?1 and status <> ?2", outTradeNo, RefundStatus.FAILED);
    }

    /** When the trade's latest refund was (or is to be) sent to the wallet; null when it has none. */
    public Uni<Instant> lastSendOfTrade(String outTradeNo) {
        return getSession().chain(session -> session
                .createSelectionQuery("select max(sendAt) from Refund where outTradeNo = ?1", Instant.class)
                .setParameter(1, outTradeNo)
                .getSingleResult());
    }

    /**
     * When the trade's latest other refund went to the wallet, as of {@code now} (those still to be sent wait for
     * their turn, after this one); null when none did.
     */
    public Uni<Instant> lastSentOfTradeBut(String outTradeNo, long refundId, Instant now) {
        return getSession().chain(session -> session
                .createSelectionQuery("select max(sendAt) from Refund where outTradeNo = ?1 and id <> ?2"
                        + " and sendAt <= ?3", Instant.class)
                .setParameter(1, outTradeNo).setParameter(2, refundId).setParameter(3, now)
                .getSingleResult());
    }

    /** The refund goes to the wallet now: when the next refund of its trade may follow counts from here. */
    public Uni<Integer> markSent(long id, Instant at) {
        return update("sendAt = ?1 where id = ?2", at, id);
    }

    /** A PENDING refund not to be sent before {@code at}. */
    public Uni<Integer> sendLater(long id, Instant at) {
        return update("sendAt = ?1, nextAttemptAt = ?1 where id = ?2 and status = ?3", at, id, RefundStatus.PENDING);
    }

    public Uni<Boolean> markSucceeded(long id, Instant at) {
        return update("status = ?1, completedAt = ?2, nextAttemptAt = null, lastError = null where id = ?3"
                + " and status in ?4", RefundStatus.SUCCEEDED, at, id, OPEN).map(rows -> rows == 1);
    }

    public Uni<Boolean> markFailed(long id, String code, String reason, Instant at) {
        return update("status = ?1, completedAt = ?2, failureCode = ?3, failureReason = ?4, nextAttemptAt = null"
                + " where id = ?5 and status in ?6", RefundStatus.FAILED, at, code, reason, id, OPEN)
                .map(rows -> rows == 1);
    }

    /** A PENDING refund the wallet says is stuck: ABNORMAL, asked again from {@code next} on. */
    public Uni<Boolean> markAbnormal(long id, String reason, Instant next) {
        return update("status = ?1, lastError = ?2, nextAttemptAt = ?3 where id = ?4 and status = ?5",
                RefundStatus.ABNORMAL, reason, next, id, RefundStatus.PENDING).map(rows -> rows == 1);
    }

    /** An ABNORMAL refund still stuck: asked again from {@code next} on. */
    public Uni<Integer> stillAbnormal(long id, Instant next) {
        return update("nextAttemptAt = ?1 where id = ?2 and status = ?3", next, id, RefundStatus.ABNORMAL);
    }

    /** An attempt that did not learn the outcome: counted, and the next one due at {@code next}. */
    public Uni<Integer> markUnknown(long id, String error, Instant next) {
        return update("attempts = attempts + 1, lastError = ?1, nextAttemptAt = ?2 where id = ?3 and status = ?4",
                error, next, id, RefundStatus.PENDING);
    }
}
