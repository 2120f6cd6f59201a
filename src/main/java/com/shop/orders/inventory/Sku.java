package com.shop.orders.inventory;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Formula;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A sellable stock-keeping unit, as read; its stock changes only through {@link StockLocks}, {@link SkuRepository}'s
 * conditional updates and {@link SkuChanges}.
 */
@Entity
@Table(name = "sku")
public class Sku extends PanacheEntityBase {

    @Id
    public Long id;

    public String code;

    public String name;

    @Column(precision = 12, scale = 2)
    public BigDecimal price;

    /** On hand: on the SKU's row, or (bucketed SKU) the sum of its buckets. */
    @Formula("(stock + COALESCE((SELECT SUM(b.stock) FROM sku_bucket b WHERE b.sku_id = id), 0))")
    public int stock;

    /** Reserved by orders that are waiting for payment, wherever they reserved it. */
    @Formula("(lock_stock + COALESCE((SELECT SUM(b.lock_stock) FROM sku_bucket b WHERE b.sku_id = id), 0))")
    public int lockStock;

    /** How many rows the stock is spread over; 1: the SKU's own row. */
    public int buckets;

    /** At most this many units in one member's pending and paid orders; null: no limit. */
    @Column(name = "per_member_limit")
    public Integer perMemberLimit;

    public int available() {
        return stock - lockStock;
    }
}
