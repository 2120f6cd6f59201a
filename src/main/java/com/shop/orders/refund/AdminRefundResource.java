package com.shop.orders.refund;

import java.net.URI;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
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

import com.shop.orders.member.Roles;
import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;

import io.smallrye.mutiny.Uni;

/** Refunds of paid orders, for admins. */
@Path("/api/admin/orders/{id}/refunds")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@Tag(name = ApiContract.ADMIN)
@SecurityRequirement(name = ApiContract.BEARER)
@APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
@APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
@APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
@APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
@APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
public class AdminRefundResource {

    static final String REFUND_EXAMPLE = """
            {"id":7,"orderId":1042,"orderNo":"202606010800000123456789","amount":59.00,"reason":"returned: wrong size",\
            "cause":"REQUESTED","status":"SUCCEEDED","outRequestNo":"202606010800000123456789-r1",\
            "requestedAt":"2026-06-03T10:00:00Z","completedAt":"2026-06-03T10:00:01Z",\
            "restock":[{"skuId":1,"quantity":1}]}""";

    private final RefundService refunds;

    public AdminRefundResource(RefundService refunds) {
        this.refunds = refunds;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "refundOrder",
            summary = "Refund a paid order, in full or in part", description = "Admins only. Any number of refunds "
            + "per order, together never more than was paid, on the channel whose payment the order accepted (a "
            + "request may name it in `channel`, as a check). The refund is recorded with its own request number "
            + "(outRequestNo) before the wallet is called: SUCCEEDED when the wallet made it, FAILED when the wallet "
            + "refused or closed it for good (failureCode and failureReason are the wallet's; the amount can be "
            + "refunded again), PENDING when the wallet's outcome is not known yet (time-out, 5xx, a system error, "
            + "WeChat Pay still processing it): the service then learns it from the wallet's refund notify or asks "
            + "with the refund query, and sends the same request number again only if the wallet does not have it, so "
            + "money goes back once. ABNORMAL (WeChat Pay): the wallet took the refund but could not pay it back to the "
            + "buyer's account; it is not final: a person finishes it in the wallet's merchant console, after which it "
            + "ends SUCCEEDED or FAILED; meanwhile it keeps its amount and is never sent again. WeChat Pay's rules are "
            + "checked first: at most 50 refunds a payment (failed ones do not count), none a year after the payment "
            + "(409, nothing recorded), and a minute between two refunds of a payment: a refund asked for sooner is "
            + "recorded PENDING and sent when the minute is over. A full refund makes the order REFUNDED; a partial one "
            + "leaves it PAID. Restocked units go back on sale and no longer count against the member's purchase "
            + "limits. The same Idempotency-Key with the same body answers the refund it made (200, "
            + "Idempotent-Replayed: true).")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RefundRequest.class),
            examples = {
                    @ExampleObject(name = "partial", value = "{\"amount\":10.00,\"reason\":\"price adjustment\"}"),
                    @ExampleObject(name = "returned", value = "{\"amount\":59.00,\"reason\":\"returned: wrong size\","
                            + "\"restock\":[{\"skuId\":1,\"quantity\":1}]}") }))
    @APIResponse(responseCode = "201", description = "Recorded and sent (or, within WeChat Pay's minute after the "
            + "payment's previous refund, recorded PENDING to be sent when it is over); Location names the refund",
            headers = @Header(name = "Location", description = "/api/admin/orders/{id}/refunds/{refundId}",
                    schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RefundView.class),
                    examples = @ExampleObject(name = "refund", value = REFUND_EXAMPLE)))
    @APIResponse(responseCode = "200", description = "A retry with the same Idempotency-Key: that refund, as it stands now",
            headers = @Header(name = "Idempotent-Replayed", description = "Always true",
                    schema = @Schema(type = SchemaType.STRING, enumeration = "true")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RefundView.class),
                    examples = @ExampleObject(name = "refund", value = REFUND_EXAMPLE)))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "409", description = "Nothing was recorded or sent: the order is not PAID "
            + "(`orderStatus`), the amount is more than is left to refund (`refundable`; PENDING and ABNORMAL refunds "
            + "take theirs), a restock line asks for more units than the order has left to return (`skuId`, "
            + "`restockable`), `channel` is not the channel that paid (`paidWith`), the paying wallet's rules forbid "
            + "another refund (WeChat Pay: 50 a payment, `maxRefunds`; a year after the payment, `refundableUntil`), "
            + "or the Idempotency-Key was used for another body",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = {
                            @ExampleObject(name = "exceedsPayment", value = """
                                    {"type":"about:blank","title":"Refund exceeds payment","status":409,\
                                    "detail":"Order 1042 has 49.00 left to refund of the 118.00 paid",\
                                    "instance":"/api/admin/orders/1042/refunds","refundable":49.00}"""),
                            @ExampleObject(name = "notPaid", value = """
                                    {"type":"about:blank","title":"Order not refundable","status":409,\
                                    "detail":"Order 1042 is CLOSED: only a paid order can be refunded",\
                                    "instance":"/api/admin/orders/1042/refunds","orderStatus":"CLOSED"}"""),
                            @ExampleObject(name = "otherChannel", value = """
                                    {"type":"about:blank","title":"Refund on another channel","status":409,\
                                    "detail":"Order 1042 was paid with wechat, not alipay: it is refunded on wechat",\
                                    "instance":"/api/admin/orders/1042/refunds","paidWith":"wechat"}"""),
                            @ExampleObject(name = "tooManyRefunds", value = """
                                    {"type":"about:blank","title":"Too many refunds","status":409,\
                                    "detail":"Order 1042 has 50 refunds on wechat, which takes at most 50 per payment",\
                                    "instance":"/api/admin/orders/1042/refunds","maxRefunds":50}"""),
                            @ExampleObject(name = "periodOver", value = """
                                    {"type":"about:blank","title":"Refund period over","status":409,\
                                    "detail":"Order 1042 was paid with wechat at 2025-06-01T08:03:05Z: it could be \
                                    refunded until 2026-06-01T08:03:05Z","instance":"/api/admin/orders/1042/refunds",\
                                    "refundableUntil":"2026-06-01T08:03:05Z"}"""),
                            @ExampleObject(name = "keyReused", value = """
                                    {"type":"about:blank","title":"Idempotency key reused","status":409,\
                                    "detail":"This Idempotency-Key was already used for a different refund of this order",\
                                    "instance":"/api/admin/orders/1042/refunds"}""") }))
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    public Uni<Response> refund(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id,
            @Valid @NotNull RefundRequest request,
            @Parameter(description = "Required: makes the request safe to retry; the same key with the same body "
                    + "answers the first refund. 1-100 visible ASCII characters, unique per order",
                    required = true, example = "refund-1042-return-1")
            @HeaderParam("Idempotency-Key") @NotNull @Pattern(regexp = "[\\x21-\\x7E]{1,100}") String idempotencyKey) {
        return refunds.request(id, request, idempotencyKey)
                .map(requested -> requested.replayed()
                        ? Response.ok(requested.refund()).header("Idempotent-Replayed", "true").build()
                        : Response.created(URI.create("/api/admin/orders/" + id + "/refunds/" + requested.refund().id()))
                                .entity(requested.refund()).build());
    }

    @GET
    @Operation(operationId = "listOrderRefunds",
            summary = "An order's refunds, oldest first", description = "Admins only. Also the refunds the service "
            + "made by itself: a payment that arrived after the order had closed (cause LATE_PAYMENT), a trade Alipay "
            + "refunded when it was voided (CANCELLED_TRADE).")
    @APIResponse(responseCode = "200", description = "The refunds", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(type = SchemaType.ARRAY, implementation = RefundView.class),
            examples = @ExampleObject(name = "refunds", value = "[" + REFUND_EXAMPLE + "]")))
    public Uni<List<RefundView>> list(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id) {
        return refunds.list(id);
    }

    @GET
    @Path("/{refundId}")
    @Operation(operationId = "getOrderRefund", summary = "One refund of an order", description = "Admins only.")
    @APIResponse(responseCode = "200", description = "The refund", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RefundView.class), examples = @ExampleObject(name = "refund", value = REFUND_EXAMPLE)))
    public Uni<RefundView> get(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id,
            @Parameter(description = "The refund's id", example = "7") @PathParam("refundId") long refundId) {
        return refunds.find(id, refundId);
    }
}
