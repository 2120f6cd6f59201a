package com.shop.orders.inventory;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Reserves stock for a new order on the caller's plain SQL connection and transaction (placement's hot
 * path); {@link StockService} moves it afterwards. One conditional UPDATE per line, in SKU id order so
 * that orders sharing SKUs take the row locks in the same order and cannot deadlock.
 */
@ApplicationScoped
public class StockLocks {

    /** A line to reserve, at the price and purchase limit its order was computed with. */
    public record PricedLine(long skuId, int quantity, BigDecimal price, Integer perMemberLimit) {
    }

    /** No row matched: not enough available, or the price or limit is no longer the one the order used. */
    public static final class NotLocked extends RuntimeException {
        private final long skuId;

        NotLocked(long skuId) {
            super("SKU " + skuId + " not locked", null, false, false);
            this.skuId = skuId;
        }

        public long skuId() {
            return skuId;
        }
    }

    public Uni<Void> lockAll(SqlConnection connection, List<PricedLine> lines) {
        List<PricedLine> ordered = lines.stream().sorted(Comparator.comparingLong(PricedLine::skuId)).toList();
        return Multi.createFrom().iterable(ordered)
                .onItem().transformToUniAndConcatenate(line -> lock(connection, line))
                .collect().last()
                .replaceWithVoid();
    }

    private Uni<Void> lock(SqlConnection connection, PricedLine line) {
        return connection.preparedQuery("UPDATE sku SET lock_stock = lock_stock + ? "
                + "WHERE id = ? AND price = ? AND per_member_limit <=> ? AND stock - lock_stock >= ?")
                .execute(Tuple.of(line.quantity(), line.skuId(), line.price(), line.perMemberLimit(), line.quantity()))
                .invoke(rows -> {
                    if (rows.rowCount() != 1) {
                        throw new NotLocked(line.skuId());
                    }
                })
                .replaceWithVoid();
    }
}
