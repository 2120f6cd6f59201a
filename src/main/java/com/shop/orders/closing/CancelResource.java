package com.shop.orders.closing;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.Roles;
import com.shop.orders.order.OrderView;

import io.smallrye.mutiny.Uni;

/** A member cancels their own unpaid order. */
@Path("/api/orders/{id}/cancel")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.MEMBER)
public class CancelResource {

    private final OrderCloser closer;
    private final CurrentMember member;

    public CancelResource(OrderCloser closer, CurrentMember member) {
        this.closer = closer;
        this.member = member;
    }

    @POST
    public Uni<OrderView> cancel(@PathParam("id") long id) {
        return closer.cancelByMember(id, member.id());
    }
}
