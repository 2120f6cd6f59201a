package com.shop.orders.order;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import com.shop.orders.inventory.HeldStock;
import com.shop.orders.inventory.StockLine;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

@Entity
@Table(name = "order_item")
public class OrderItem extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "order_id")
    public Long orderId;

    @Column(name = "sku_id")
    public Long skuId;

    @Column(name = "sku_name")
    public String skuName;

    @Column(name = "unit_price", precision = 12, scale = 2)
    public BigDecimal unitPrice;

    public int quantity;

    /** Which buckets its units were reserved from, or null (see {@link HeldStock}). */
    @Column(name = "stock_buckets")
    public String stockBuckets;

    /** The SKU's bucket layout when they were. */
    @Column(name = "stock_layout")
    public Integer stockLayout;

    public StockLine stockLine() {
        return new StockLine(skuId, quantity);
    }

    /** What the item holds while its order is pending. */
    public HeldStock heldStock() {
        return new HeldStock(skuId, quantity, stockBuckets, stockLayout);
    }
}
