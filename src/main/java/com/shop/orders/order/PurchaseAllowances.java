package com.shop.orders.order;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.inventory.StockLine;
import com.shop.orders.sql.CheckViolation;
import com.shop.orders.sql.Sql;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The members' purchase limits (table {@code purchase_allowance}, see V3__purchase_limits.sql): what each member
 * holds of them, taken by placement and given back by the transitions, each inside the transaction that moves the
 * order. A close gives back the unpaid order and its units; a payment the unpaid order only (paid units still
 * count). Placement takes all of an order's rows in one statement, and the table's CHECK refuses it over a cap.
 */
@ApplicationScoped
public class PurchaseAllowances {

    /** The row of a member's unpaid orders; the other rows are SKUs. */
    static final long UNPAID_ORDERS = 0;
    private static final String CAP_CHECK = "ck_allowance_cap";

    /** What an order takes of one limit: this many units (or one unpaid order) under this cap (null: none). */
    record Take(long skuId, int units, Integer cap) {
    }

    /**
     * Adds the new order to the member's unpaid orders and its lines' units to their SKUs, on the placement's
     * connection and transaction; fails with {@link PurchaseLimitReached} when a cap would be exceeded. Rows in
     * ascending SKU id order, the unpaid orders first, as every other writer locks them.
     */
    Uni<Void> take(SqlConnection connection, String memberId, List<StockLine> lines, Map<Long, Integer> caps,
            int maxUnpaid) {
        List<Take> takes = new ArrayList<>();
        takes.add(new Take(UNPAID_ORDERS, 1, maxUnpaid > 0 ? maxUnpaid : null));
        lines.stream().sorted(Comparator.comparingLong(StockLine::skuId))
                .forEach(line -> takes.add(new Take(line.skuId(), line.quantity(), caps.get(line.skuId()))));
        Tuple params = Tuple.tuple();
        for (Take take : takes) {
            params.addString(memberId).addLong(take.skuId()).addInteger(take.units()).addInteger(take.cap());
        }
        return connection.preparedQuery("INSERT INTO purchase_allowance (member_id, sku_id, used, cap) VALUES "
                + String.join(", ", Collections.nCopies(takes.size(), "(?, ?, ?, ?)"))
                + " ON DUPLICATE KEY UPDATE used = used + VALUES(used), cap = VALUES(cap)")
                .execute(params)
                .replaceWithVoid()
                .onFailure(failure -> CheckViolation.isCause(failure, CAP_CHECK))
                .recoverWithUni(() -> refusal(connection, memberId, takes));
    }

    /** Gives back what a closed order held: one unpaid order and its units. In the close's transaction. */
    public Uni<Void> giveBackClosed(String memberId, List<StockLine> lines) {
        Map<Long, Integer> units = new HashMap<>();
        units.put(UNPAID_ORDERS, 1);
        lines.forEach(line -> units.merge(line.skuId(), line.quantity(), Integer::sum));
        return giveBack(memberId, units, "closed order of " + memberId);
    }

    /** Refunded units that went back to stock no longer count against the member. In the refund's transaction. */
    public Uni<Void> giveBackRefunded(String memberId, List<StockLine> lines) {
        Map<Long, Integer> units = new HashMap<>();
        lines.forEach(line -> units.merge(line.skuId(), line.quantity(), Integer::sum));
        return units.isEmpty() ? Uni.createFrom().voidItem() : giveBack(memberId, units, "refund of " + memberId);
    }

    private static Uni<Void> giveBack(String memberId, Map<Long, Integer> units, String what) {
        StringBuilder amounts = new StringBuilder("CASE sku_id");
        List<Object> params = new ArrayList<>();
        units.forEach((skuId, quantity) -> {
            amounts.append(" WHEN ? THEN ?");
            params.add(skuId);
            params.add(quantity);
        });
        params.add(memberId);
        params.addAll(units.keySet());
        return execute("UPDATE purchase_allowance SET used = used - " + amounts + " END WHERE member_id = ? AND sku_id IN ("
                + Sql.placeholders(units.size()) + ")", params, units.size(), what);
    }

    /** A paid order is no longer unpaid; its units stay held. In the payment's transaction. */
    public Uni<Void> giveBackPaid(String memberId) {
        return execute("UPDATE purchase_allowance SET used = used - 1 WHERE member_id = ? AND sku_id = ?",
                List.of(memberId, UNPAID_ORDERS), 1, "paid order of " + memberId);
    }

    /** A row that is not there breaks the limits' invariant: abort the transaction rather than hide it. */
    private static Uni<Void> execute(String sql, List<Object> params, int rows, String what) {
        return Panache.getSession().chain(session -> {
            var query = session.createNativeQuery(sql);
            for (int i = 0; i < params.size(); i++) {
                query.setParameter(i + 1, params.get(i));
            }
            return query.executeUpdate();
        }).invoke(updated -> {
            if (updated != rows) {
                throw new IllegalStateException("Purchase allowance of a " + what + ": " + updated + " of " + rows
                        + " rows held it");
            }
        }).replaceWithVoid();
    }

    /** Names the limit that refused the order, as the member's rows stand now. */
    private Uni<Void> refusal(SqlConnection connection, String memberId, List<Take> takes) {
        Tuple params = Tuple.of(memberId);
        takes.forEach(take -> params.addLong(take.skuId()));
        return connection.preparedQuery("SELECT sku_id, used FROM purchase_allowance WHERE member_id = ? AND sku_id IN ("
                + Sql.placeholders(takes.size()) + ")")
                .execute(params)
                .map(rows -> {
                    Map<Long, Integer> held = new HashMap<>();
                    for (Row row : rows) {
                        held.put(row.getLong("sku_id"), row.getInteger("used"));
                    }
                    return held;
                })
                .chain(held -> Uni.createFrom().failure(reached(takes, held)));
    }

    private static PurchaseLimitReached reached(List<Take> takes, Map<Long, Integer> held) {
        for (Take take : takes) {
            int now = held.getOrDefault(take.skuId(), 0);
            if (take.cap() != null && now + take.units() > take.cap()) {
                return take.skuId() == UNPAID_ORDERS ? PurchaseLimitReached.unpaidOrders(take.cap())
                        : PurchaseLimitReached.perMember(take.skuId(), take.cap(), now);
            }
        }
        return PurchaseLimitReached.unnamed();
    }
}
