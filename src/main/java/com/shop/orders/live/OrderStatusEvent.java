package com.shop.orders.live;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.shop.orders.order.CloseReason;
import com.shop.orders.order.Order;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.order.OrderTransition;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** One state of an order as its live status stream reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
// Serialized as the data of an SSE event, not as a return type: the native build would not see it otherwise.
@RegisterForReflection
@Schema(name = "OrderStatusEvent", description = "The data of a `status` event of an order's live status stream")
public record OrderStatusEvent(
        @Schema(example = "1042") long orderId,
        @Schema(example = "PAID") OrderStatus status,
        @Schema(description = "Set when the status is CLOSED", example = "EXPIRED") CloseReason closeReason,
        @Schema(example = "2026-06-01T08:05:00Z") Instant payDeadline,
        @Schema(description = "When the order entered this status", example = "2026-06-01T08:01:12Z") Instant at) {

    static OrderStatusEvent of(Order order) {
        Instant at = switch (order.status) {
            case PAID -> order.paidAt;
            case CLOSED -> order.closedAt;
            case REFUNDED -> order.refundedAt;
            default -> order.createdAt;
        };
        return new OrderStatusEvent(order.id, order.status, order.closeReason, order.payDeadline, at);
    }

    static OrderStatusEvent of(OrderTransition transition, Instant payDeadline) {
        return new OrderStatusEvent(transition.orderId(), transition.status(), transition.closeReason(), payDeadline,
                transition.at());
    }

    /** Paid or closed: nothing will change any more that a checkout page waits for. */
    @JsonIgnore
    public boolean isDecided() {
        return status != OrderStatus.PENDING_PAYMENT;
    }
}
