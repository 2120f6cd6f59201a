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
            "perMemberLimit":1,"buckets":1}""";

    private static final String BUCKETS_EXAMPLE = """
            {"id":7,"code":"SALE-PHONE","name":"Phone, flash sale","price":999.00,"stock":5000,"available":4990,\
            "perMemberLimit":1,"buckets":16}""";

    private final SkuRepository skus;
    private final SkuChanges changes;
    private final Event<StockRestocked> restocked;

    public AdminSkuResource(SkuRepository skus, SkuChanges changes, Event<StockRestocked> restocked) {
        this.skus = skus;
        this.changes = changes;
        this.restocked = restocked;
    }

    @PUT
    @Path("/{id}/stock")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "setSkuStock",
            summary = "Set a SKU's stock on hand", description = "Admins only. The new stock may not be below "
            + "what pending orders have reserved. On a SKU with buckets, each bucket keeps what is reserved in it and "
            + "the free units are spread evenly over them.")
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
        return changes.setStock(id, request.stock())
                .chain(outcome -> outcome == SkuChanges.Outcome.BELOW_RESERVATIONS
                        ? Uni.createFrom().failure(belowReservations(id, request.stock())) : changed(id, outcome))
                // Committed: placement may stop answering "sold out" from memory.
                .invoke(() -> restocked.fire(new StockRestocked(id)));
    }

    @PUT
    @Path("/{id}/buckets")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "setSkuBuckets",
            summary = "Spread a SKU's stock over buckets", description = "Admins only. For a flash sale: every "
            + "order reserves from one of the SKU's buckets (rows), so concurrent orders do not queue on one row lock. "
            + "1 (every SKU's default) keeps the stock on the SKU's own row. Spreads the free units evenly over the new "
            + "buckets in one transaction; what pending orders hold stays held (in bucket 0). Stock and available "
            + "stay the sums.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = BucketsRequest.class),
            examples = @ExampleObject(name = "flashSale", value = "{\"buckets\":16}")))
    @APIResponse(responseCode = "200", description = "The SKU with its new buckets",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SkuView.class),
                    examples = @ExampleObject(name = "sku", value = BUCKETS_EXAMPLE)))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    public Uni<SkuView> setBuckets(@Parameter(description = "The SKU's id", example = "7") @PathParam("id") long id,
            @Valid @NotNull BucketsRequest request) {
        return changes.setBuckets(id, request.buckets())
                .chain(outcome -> changed(id, outcome))
                // Units may now sit in a bucket placement did not try: it may stop answering "sold out".
                .invoke(() -> restocked.fire(new StockRestocked(id)));
    }

    @PUT
    @Path("/{id}/limit")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "setSkuPurchaseLimit",
            summary = "Limit how many units of a SKU one member may buy", description = "Admins only. Counts the "
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
    @Operation(operationId = "removeSkuPurchaseLimit",
            summary = "Lift a SKU's purchase limit", description = "Admins only. Any member may then buy any "
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
        return changes.setPerMemberLimit(id, limit).chain(outcome -> changed(id, outcome));
    }

    /** The SKU as committed; 404 when there is no such SKU. */
    private Uni<SkuView> changed(long id, SkuChanges.Outcome outcome) {
        if (outcome == SkuChanges.Outcome.NO_SUCH_SKU) {
            return Uni.createFrom().failure(new SkuNotFoundException(id));
        }
        return Panache.withSession(() -> skus.findById(id)).map(SkuView::of);
    }

    private static ProblemException belowReservations(long id, int stock) {
        return new ProblemException(409, "Stock below reservations",
                "SKU " + id + " has more stock reserved by pending orders than " + stock, Map.of("skuId", id));
    }
}
