package com.shop.orders.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An order as its member sees it. {@code refundedTotal} and {@code refunds} are present once the order has a refund:
 * each refund's amount, status and times; the reason an admin gave is internal and shown to admins only.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record OrderView(long id, String orderNo, OrderStatus status, CloseReason closeReason, BigDecimal totalAmount,
        Instant payDeadline, Instant createdAt, Instant paidAt, Instant closedAt, Instant refundedAt,
        BigDecimal refundedTotal, List<Item> items, List<Refund> refunds) {

    @Schema(name = "OrderItem")
    public record Item(long skuId, String skuName, BigDecimal unitPrice, int quantity) {
    }

    /** @param status PENDING (on its way), SUCCEEDED or FAILED (nothing was refunded) */
    @Schema(name = "OrderRefund")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Refund(BigDecimal amount, String status, Instant requestedAt, Instant completedAt) {

        boolean succeeded() {
            return "SUCCEEDED".equals(status);
        }
    }

    public static OrderView of(Order order, List<OrderItem> items, List<Refund> refunds) {
        BigDecimal refunded = refunds.isEmpty() ? null : refunds.stream().filter(Refund::succeeded)
                .map(Refund::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
        return new OrderView(order.id, order.orderNo, order.status, order.closeReason, order.totalAmount,
                order.payDeadline, order.createdAt, order.paidAt, order.closedAt, order.refundedAt, refunded,
                items.stream().map(i -> new Item(i.skuId, i.skuName, i.unitPrice, i.quantity)).toList(),
                refunds.isEmpty() ? null : refunds);
    }
}
