package com.shop.orders.order;

import java.net.URI;
import java.util.Arrays;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.shop.orders.common.ProblemException;
import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.Roles;

import io.smallrye.mutiny.Uni;

/** A member's own orders. Another member's order is answered as not found. */
@Path("/api/orders")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.MEMBER)
public class OrderResource {

    private final OrderPlacement placement;
    private final OrderQueries queries;
    private final CurrentMember member;

    public OrderResource(OrderPlacement placement, OrderQueries queries, CurrentMember member) {
        this.placement = placement;
        this.queries = queries;
        this.member = member;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> place(@Valid @NotNull PlaceOrderRequest request,
            @HeaderParam("Idempotency-Key") @Pattern(regexp = "[\\x21-\\x7E]{1,100}") String idempotencyKey) {
        return placement.place(member.id(), request, idempotencyKey)
                .map(placed -> placed.replayed()
                        ? Response.ok(placed.order()).header("Idempotent-Replayed", "true").build()
                        : Response.created(URI.create("/api/orders/" + placed.order().id())).entity(placed.order()).build());
    }

    @GET
    @Path("/{id}")
    public Uni<OrderView> get(@PathParam("id") long id) {
        return queries.findOwned(id, member.id());
    }

    @GET
    public Uni<OrderPage> list(@QueryParam("status") String status,
            @QueryParam("page") @DefaultValue("0") @Min(0) @Max(100_000) int page,
            @QueryParam("size") @DefaultValue("20") @Min(1) @Max(100) int size) {
        return queries.listOwned(member.id(), parseStatus(status), page, size);
    }

    private static OrderStatus parseStatus(String status) {
        if (status == null || status.isBlank()) {
            return null;
        }
        try {
            return OrderStatus.valueOf(status);
        } catch (IllegalArgumentException e) {
            throw ProblemException.invalid("status", "one of " + Arrays.toString(OrderStatus.values()));
        }
    }
}
