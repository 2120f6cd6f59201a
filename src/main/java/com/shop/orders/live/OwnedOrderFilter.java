package com.shop.orders.live;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import com.shop.orders.member.CurrentMember;
import com.shop.orders.order.OrderNotFoundException;
import com.shop.orders.order.OrderRepository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Answers 404 for an order that is not the caller's before an {@link OwnedOrder} method runs. A stream's
 * head (200, text/event-stream) is written as soon as the method returns its stream, so the stream itself
 * could no longer answer with a problem. Runs after the role check, so the member is known here.
 */
public class OwnedOrderFilter {

    private final OrderRepository orders;
    private final CurrentMember member;

    public OwnedOrderFilter(OrderRepository orders, CurrentMember member) {
        this.orders = orders;
        this.member = member;
    }

    @ServerRequestFilter
    @OwnedOrder
    public Uni<Void> requireOwner(UriInfo uri) {
        long id = orderId(uri);
        return Panache.withSession(() -> orders.findOwned(id, member.id()))
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(id))
                .replaceWithVoid();
    }

    private static long orderId(UriInfo uri) {
        try {
            return Long.parseLong(uri.getPathParameters().getFirst("id"));
        } catch (NumberFormatException e) {
            // What JAX-RS answers itself for a path parameter it cannot convert.
            throw new NotFoundException();
        }
    }
}
