package com.shop.orders.refund;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/** Units of one SKU that a refund returns to stock once it succeeded. */
@Entity
@Table(name = "refund_restock")
public class RestockLine extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "refund_id")
    public Long refundId;

    @Column(name = "sku_id")
    public Long skuId;

    public int quantity;
}
