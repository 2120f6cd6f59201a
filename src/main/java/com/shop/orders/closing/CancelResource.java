package com.shop.orders.closing;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.Roles;
import com.shop.orders.order.OrderView;
import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;

import io.smallrye.mutiny.Uni;

/** A member cancels their own unpaid order. */
@Path("/api/orders/{id}/cancel")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.MEMBER)
@Tag(name = ApiContract.ORDERS)
@SecurityRequirement(name = ApiContract.BEARER)
public class CancelResource {

    private final OrderCloser closer;
    private final CurrentMember member;

    public CancelResource(OrderCloser closer, CurrentMember member) {
        this.closer = closer;
        this.member = member;
    }

    @POST
    @Operation(operationId = "cancelOrder",
            summary = "Cancel an unpaid order", description = "Closes the order (MEMBER_CANCELLED), voids its Alipay "
            + "QR code and releases its stock. If Alipay has taken the money meanwhile, the order is PAID instead and "
            + "the answer is 409.")
    @APIResponse(responseCode = "200", description = "The closed order", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = OrderView.class),
            examples = @ExampleObject(name = "cancelled", value = """
                    {"id":1042,"orderNo":"202606010800000123456789","status":"CLOSED",\
                    "closeReason":"MEMBER_CANCELLED","totalAmount":118.00,"payDeadline":"2026-06-01T08:05:00Z",\
                    "createdAt":"2026-06-01T08:00:00Z","closedAt":"2026-06-01T08:02:31Z",\
                    "items":[{"skuId":1,"skuName":"T-shirt, black, M","unitPrice":59.00,"quantity":2}]}""")))
    @APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "409", description = "The order is paid or closed already (`orderStatus` says which)",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = @ExampleObject(name = "paid", value = """
                            {"type":"about:blank","title":"Order not cancellable","status":409,\
                            "detail":"Order 1042 is PAID","instance":"/api/orders/1042/cancel","orderStatus":"PAID"}""")))
    @APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
    @APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
    @APIResponse(responseCode = "502", ref = ApiContract.BAD_GATEWAY)
    public Uni<OrderView> cancel(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id) {
        return closer.cancelByMember(id, member.id());
    }
}
