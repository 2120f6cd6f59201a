package com.shop.orders.inventory;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.enterprise.event.Event;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.shop.orders.member.Roles;
import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;
import com.shop.orders.web.ProblemException;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

@Path("/api/admin/skus")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@Tag(name = ApiContract.ADMIN)
@SecurityRequirement(name = ApiContract.BEARER)
@APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
@APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
@APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
@APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
public class AdminSkuResource {

    private static final String LIMIT_EXAMPLE = """
            {"id":1,"code":"TEE-BLK-M","name":"T-shirt, black, M","price":59.00,"stock":100,"available":98,\
            "perMemberLimit":1}""";

    private final SkuRepository skus;
    private final SkuCatalog catalog;
    private final Event<StockRestocked> restocked;

    public AdminSkuResource(SkuRepository skus, SkuCatalog catalog, Event<StockRestocked> restocked) {
        this.skus = skus;
        this.catalog = catalog;
        this.restocked = restocked;
    }

    @PUT
    @Path("/{id}/stock")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a SKU's stock on hand", description = "Admins only. The new stock may not be below "
            + "what pending orders have reserved.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RestockRequest.class),
            examples = @ExampleObject(name = "restock", value = "{\"stock\":150}")))
    @APIResponse(responseCode = "200", description = "The SKU with its new stock",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SkuView.class),
                    examples = @ExampleObject(name = "sku", value = SkuResource.SKU_EXAMPLE)))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "409", description = "Pending orders have reserved more than the new stock",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = @ExampleObject(name = "belowReservations", value = """
                            {"type":"about:blank","title":"Stock below reservations","status":409,\
                            "detail":"SKU 1 has more stock reserved by pending orders than 2",\
                            "instance":"/api/admin/skus/1/stock","skuId":1}""")))
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    public Uni<SkuView> restock(@Parameter(description = "The SKU's id", example = "1") @PathParam("id") long id,
            @Valid @NotNull RestockRequest request) {
        // The update first, the read after it: an entity loaded before a bulk update would be stale.
        return Panache.withTransaction(() -> skus.setStock(id, request.stock())
                        .chain(updated -> updated ? skus.findById(id) : notUpdated(id, request.stock())))
                // Committed: placement may stop answering "sold out" from memory.
                .invoke(() -> restocked.fire(new StockRestocked(id)))
                .map(SkuView::of);
    }

    @PUT
    @Path("/{id}/limit")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Limit how many units of a SKU one member may buy", description = "Admins only. Counts the "
            + "units in the member's pending and paid orders (closed orders do not count); an order over it is "
            + "refused with 409 \"Purchase limit reached\". Shown in the catalog as perMemberLimit.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = PerMemberLimitRequest.class),
            examples = @ExampleObject(name = "onePerMember", value = "{\"perMemberLimit\":1}")))
    @APIResponse(responseCode = "200", description = "The SKU with its new limit",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SkuView.class),
                    examples = @ExampleObject(name = "sku", value = LIMIT_EXAMPLE)))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    public Uni<SkuView> setLimit(@Parameter(description = "The SKU's id", example = "1") @PathParam("id") long id,
            @Valid @NotNull PerMemberLimitRequest request) {
        return changeLimit(id, request.perMemberLimit());
    }

    @DELETE
    @Path("/{id}/limit")
    @Operation(summary = "Lift a SKU's purchase limit", description = "Admins only. Any member may then buy any "
            + "number of units, up to the order limits.")
    @APIResponse(responseCode = "200", description = "The SKU without a limit",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SkuView.class),
                    examples = @ExampleObject(name = "sku", value = SkuResource.SKU_EXAMPLE)))
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    public Uni<SkuView> liftLimit(@Parameter(description = "The SKU's id", example = "1") @PathParam("id") long id) {
        return changeLimit(id, null);
    }

    /** Placements that read the old limit fail their stock lock and are computed again with the new one. */
    private Uni<SkuView> changeLimit(long id, Integer limit) {
        return Panache.withTransaction(() -> skus.setPerMemberLimit(id, limit)
                        .chain(updated -> updated ? skus.findById(id)
                                : Uni.createFrom().failure(new SkuNotFoundException(id))))
                .invoke(() -> catalog.forget(id))
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
