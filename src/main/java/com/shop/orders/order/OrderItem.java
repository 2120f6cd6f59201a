package com.shop.orders.order;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import com.shop.orders.inventory.StockLine;

import io.quarkus.hibernate.reactive.panache.PanacheEntity;

@Entity
@Table(name = "order_item")
public class OrderItem extends PanacheEntity {

    @Column(name = "order_id")
    public Long orderId;

    @Column(name = "sku_id")
    public Long skuId;

    @Column(name = "sku_name")
    public String skuName;

    @Column(name = "unit_price", precision = 12, scale = 2)
    public BigDecimal unitPrice;

    public int quantity;

    public StockLine stockLine() {
        return new StockLine(skuId, quantity);
    }
}
