package com.shop.orders.inventory;

import java.util.List;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.shop.orders.web.ApiContract;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;

/** The public catalog with what is available to order right now. */
@Path("/api/skus")
@Produces(MediaType.APPLICATION_JSON)
@PermitAll
@Tag(name = ApiContract.CATALOG)
@APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
@APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
public class SkuResource {

    static final String SKU_EXAMPLE = """
            {"id":1,"code":"TEE-BLK-M","name":"T-shirt, black, M","price":59.00,"stock":100,"available":98,\
            "perMemberLimit":null,"buckets":1}""";

    private final SkuRepository skus;

    public SkuResource(SkuRepository skus) {
        this.skus = skus;
    }

    @GET
    @WithSession
    @Operation(operationId = "listSkus",
            summary = "The catalog", description = "Every SKU with its stock on hand and what is available to "
            + "order now: stock minus what pending orders have reserved.")
    @APIResponse(responseCode = "200", description = "All SKUs", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.ARRAY, implementation = SkuView.class),
            examples = @ExampleObject(name = "catalog", value = "[" + SKU_EXAMPLE + "]")))
    public Uni<List<SkuView>> list() {
        return skus.listAll().map(all -> all.stream().map(SkuView::of).toList());
    }

    @GET
    @Path("/{id}")
    @WithSession
    @Operation(operationId = "getSku", summary = "One SKU")
    @APIResponse(responseCode = "200", description = "The SKU", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SkuView.class), examples = @ExampleObject(name = "sku", value = SKU_EXAMPLE)))
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    public Uni<SkuView> get(@Parameter(description = "The SKU's id", example = "1") @PathParam("id") long id) {
        return skus.findById(id)
                .onItem().ifNull().failWith(() -> new SkuNotFoundException(id))
                .map(SkuView::of);
    }
}
