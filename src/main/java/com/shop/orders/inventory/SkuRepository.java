package com.shop.orders.inventory;

import java.util.Collection;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;

/**
 * Stock moves as single conditional UPDATEs so that concurrent orders can never oversell: the database
 * checks availability and changes it in one statement (no read-modify-write). Reservations for new orders
 * are made by {@link StockLocks} on placement's own connection; these move them afterwards.
 */
@ApplicationScoped
public class SkuRepository implements PanacheRepositoryBase<Sku, Long> {

    public Uni<List<Sku>> findByIds(Collection<Long> ids) {
        return list("id in ?1", ids);
    }

    public Uni<List<Sku>> listAll() {
        return list("order by id");
    }

    /** Gives back a reservation of an order that will not be paid. */
    public Uni<Boolean> release(long skuId, int quantity) {
        return update("lockStock = lockStock - ?1 where id = ?2 and lockStock >= ?1", quantity, skuId)
                .map(rows -> rows == 1);
    }

    /** Turns a reservation into a sale. */
    public Uni<Boolean> deduct(long skuId, int quantity) {
        return update("stock = stock - ?1, lockStock = lockStock - ?1 where id = ?2 and lockStock >= ?1", quantity, skuId)
                .map(rows -> rows == 1);
    }

    /** Puts sold units back on hand (a refund's returned goods). */
    public Uni<Boolean> restock(long skuId, int quantity) {
        return update("stock = stock + ?1 where id = ?2", quantity, skuId).map(rows -> rows == 1);
    }

    /** Sets or (null) lifts the SKU's purchase limit per member; false when there is no such SKU. */
    public Uni<Boolean> setPerMemberLimit(long skuId, Integer limit) {
        return update("perMemberLimit = ?1 where id = ?2", limit, skuId).map(rows -> rows == 1);
    }

    /** Sets the stock on hand; refused when it would fall below what pending orders have reserved. */
    public Uni<Boolean> setStock(long skuId, int stock) {
        return update("stock = ?1 where id = ?2 and lockStock <= ?1", stock, skuId)
                .map(rows -> rows == 1);
    }
}
