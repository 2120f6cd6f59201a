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

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.Roles;
import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;
import com.shop.orders.web.ProblemException;

import io.smallrye.mutiny.Uni;

/** A member's own orders. Another member's order is answered as not found. */
@Path(OrderResource.PATH)
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.MEMBER)
@Tag(name = ApiContract.ORDERS)
@SecurityRequirement(name = ApiContract.BEARER)
@APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
@APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
@APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
@APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
public class OrderResource {

    static final String PATH = "/api/orders";

    /** An order as every order endpoint answers it. */
    public static final String ORDER_EXAMPLE = """
            {"id":1042,"orderNo":"202606010800000123456789","status":"PENDING_PAYMENT","totalAmount":118.00,\
            "payDeadline":"2026-06-01T08:05:00Z","createdAt":"2026-06-01T08:00:00Z",\
            "items":[{"skuId":1,"skuName":"T-shirt, black, M","unitPrice":59.00,"quantity":2}]}""";

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
    @Operation(operationId = "placeOrder",
            summary = "Place an order", description = "Reserves the stock of every line, or of none, and fixes the "
            + "pay deadline. With an Idempotency-Key, a retry of the same request returns the order the first one "
            + "placed (200, Idempotent-Replayed: true) instead of placing another.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = PlaceOrderRequest.class),
            examples = @ExampleObject(name = "twoTeas", value = "{\"items\":[{\"skuId\":1,\"quantity\":2}]}")))
    @APIResponse(responseCode = "201", description = "Placed; Location names the new order",
            headers = @Header(name = "Location", description = "/api/orders/{id}", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OrderView.class),
                    examples = @ExampleObject(name = "placed", value = ORDER_EXAMPLE)))
    @APIResponse(responseCode = "200", description = "A retry with the same Idempotency-Key: the order placed first",
            headers = @Header(name = "Idempotent-Replayed", description = "Always true",
                    schema = @Schema(type = SchemaType.STRING, enumeration = "true")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OrderView.class),
                    examples = @ExampleObject(name = "replayed", value = ORDER_EXAMPLE)))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "409", description = "Nothing was reserved: a line's SKU has not enough stock "
            + "available (\"Insufficient stock\", also answered from memory for a SKU that just sold out), or the order "
            + "would take the member over a purchase limit (\"Purchase limit reached\": `limit` is `unpaid-orders`, "
            + "the most unpaid orders one member may hold, or `per-member`, the SKU's perMemberLimit). 409 rather than "
            + "429: the order conflicts with the member's other orders, and no retry helps until one of them is paid "
            + "or closed",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = {
                        @ExampleObject(name = "insufficientStock", value = """
                                {"type":"about:blank","title":"Insufficient stock","status":409,\
                                "detail":"SKU 3 does not have enough stock for this order","instance":"/api/orders",\
                                "skuId":3}"""),
                        @ExampleObject(name = "perMemberLimit", value = """
                                {"type":"about:blank","title":"Purchase limit reached","status":409,\
                                "detail":"SKU 3 is limited to 1 per member, and this member's pending and paid \
                                orders already hold 1","instance":"/api/orders","limit":"per-member","skuId":3,\
                                "max":1,"held":1}"""),
                        @ExampleObject(name = "unpaidOrders", value = """
                                {"type":"about:blank","title":"Purchase limit reached","status":409,\
                                "detail":"This member already has 10 unpaid orders, the most one member may hold: \
                                pay or cancel one first","instance":"/api/orders","limit":"unpaid-orders","max":10}""")
                    }))
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "422", description = "The body names SKUs that do not exist (`skuIds`), or the "
            + "Idempotency-Key was used before for a different request",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = {
                            @ExampleObject(name = "unknownSku", value = """
                                    {"type":"about:blank","title":"Unknown SKU","status":422,\
                                    "detail":"These SKUs do not exist: [99]","instance":"/api/orders","skuIds":[99]}"""),
                            @ExampleObject(name = "keyReused", value = """
                                    {"type":"about:blank","title":"Idempotency key reused","status":422,\
                                    "detail":"This Idempotency-Key was already used for a different order request",\
                                    "instance":"/api/orders"}""") }))
    public Uni<Response> place(@Valid @NotNull PlaceOrderRequest request,
            @Parameter(description = "Makes the request safe to retry: the same key with the same body returns the "
                    + "first order; 1-100 visible ASCII characters, unique per member",
                    example = "3f2b8c1e-5d7a-4b0e-9c61-2a8f4e7d9b10")
            @HeaderParam("Idempotency-Key") @Pattern(regexp = "[\\x21-\\x7E]{1,100}") String idempotencyKey) {
        return placement.place(member.id(), request, idempotencyKey)
                .map(placed -> placed.replayed()
                        ? Response.ok(placed.order()).header("Idempotent-Replayed", "true").build()
                        : Response.created(URI.create("/api/orders/" + placed.order().id())).entity(placed.order()).build());
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "getOrder", summary = "One of the member's orders")
    @APIResponse(responseCode = "200", description = "The order", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = OrderView.class), examples = @ExampleObject(name = "order", value = ORDER_EXAMPLE)))
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    public Uni<OrderView> get(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id) {
        return queries.findOwned(id, member.id());
    }

    @GET
    @Operation(operationId = "listOrders", summary = "The member's orders, newest first")
    @APIResponse(responseCode = "200", description = "One page of orders", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = OrderPage.class),
            examples = @ExampleObject(name = "page", value = "{\"page\":0,\"size\":20,\"total\":1,\"items\":["
                    + ORDER_EXAMPLE + "]}")))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    public Uni<OrderPage> list(
            @Parameter(description = "Only orders in this status", schema = @Schema(implementation = OrderStatus.class))
            @QueryParam("status") String status,
            @Parameter(description = "Page number, from 0") @QueryParam("page") @DefaultValue("0") @Min(0) @Max(100_000) int page,
            @Parameter(description = "Orders per page") @QueryParam("size") @DefaultValue("20") @Min(1) @Max(100) int size) {
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
