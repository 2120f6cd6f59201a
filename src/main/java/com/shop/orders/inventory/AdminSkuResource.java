package com.shop.orders.inventory;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.shop.orders.common.ProblemException;
import com.shop.orders.member.Roles;

import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;

@Path("/api/admin/skus")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
public class AdminSkuResource {

    private final SkuRepository skus;

    public AdminSkuResource(SkuRepository skus) {
        this.skus = skus;
    }

    @PUT
    @Path("/{id}/stock")
    @Consumes(MediaType.APPLICATION_JSON)
    @WithTransaction
    public Uni<SkuView> restock(@PathParam("id") long id, @Valid @NotNull RestockRequest request) {
        // The update first, the read after it: an entity loaded before a bulk update would be stale.
        return skus.setStock(id, request.stock())
                .chain(updated -> updated ? skus.findById(id) : notUpdated(id, request.stock()))
                .map(SkuView::of);
    }

    /** No such SKU, or more stock reserved by pending orders than the new stock. */
    private Uni<Sku> notUpdated(long id, int stock) {
        return skus.findById(id)
                .onItem().ifNull().failWith(() -> new SkuNotFoundException(id))
                .chain(sku -> Uni.createFrom().failure(new ProblemException(409, "Stock below reservations",
                        "SKU " + id + " has more stock reserved by pending orders than " + stock, Map.of("skuId", id))));
    }
}
