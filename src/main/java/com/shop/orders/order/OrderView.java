package com.shop.orders.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

@JsonInclude(JsonInclude.Include.NON_NULL)
public record OrderView(long id, String orderNo, OrderStatus status, CloseReason closeReason, BigDecimal totalAmount,
        Instant payDeadline, Instant createdAt, Instant paidAt, Instant closedAt, List<Item> items) {

    @Schema(name = "OrderItem")
    public record Item(long skuId, String skuName, BigDecimal unitPrice, int quantity) {
    }

    public static OrderView of(Order order, List<OrderItem> items) {
        return new OrderView(order.id, order.orderNo, order.status, order.closeReason, order.totalAmount,
                order.payDeadline, order.createdAt, order.paidAt, order.closedAt,
                items.stream().map(i -> new Item(i.skuId, i.skuName, i.unitPrice, i.quantity)).toList());
    }
}
