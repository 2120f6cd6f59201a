package com.shop.orders.inventory;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** A sellable stock-keeping unit. Stock columns change only through {@link SkuRepository}'s conditional updates. */
@Entity
@Table(name = "sku")
public class Sku extends PanacheEntityBase {

    @Id
    public Long id;

    public String code;

    public String name;

    @Column(precision = 12, scale = 2)
    public BigDecimal price;

    /** On hand. */
    public int stock;

    /** Reserved by orders that are waiting for payment. */
    @Column(name = "lock_stock")
    public int lockStock;

    /** At most this many units in one member's pending and paid orders; null: no limit. */
    @Column(name = "per_member_limit")
    public Integer perMemberLimit;

    public int available() {
        return stock - lockStock;
    }
}
