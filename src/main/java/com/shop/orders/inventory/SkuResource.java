package com.shop.orders.inventory;

import java.util.List;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;

/** The public catalog with what is available to order right now. */
@Path("/api/skus")
@Produces(MediaType.APPLICATION_JSON)
@PermitAll
public class SkuResource {

    private final SkuRepository skus;

    public SkuResource(SkuRepository skus) {
        this.skus = skus;
    }

    @GET
    @WithSession
    public Uni<List<SkuView>> list() {
        return skus.listAll().map(all -> all.stream().map(SkuView::of).toList());
    }

    @GET
    @Path("/{id}")
    @WithSession
    public Uni<SkuView> get(@PathParam("id") long id) {
        return skus.findById(id)
                .onItem().ifNull().failWith(() -> new SkuNotFoundException(id))
                .map(SkuView::of);
    }
}
