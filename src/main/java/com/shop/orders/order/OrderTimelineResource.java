package com.shop.orders.order;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
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

import com.shop.orders.member.Roles;
import com.shop.orders.web.ApiContract;

import io.smallrye.mutiny.Uni;

/** An order's whole life, for operators answering "I paid and my order was cancelled". */
@Path("/api/admin/orders/{id}/timeline")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(Roles.ADMIN)
@Tag(name = ApiContract.ADMIN)
@SecurityRequirement(name = ApiContract.BEARER)
public class OrderTimelineResource {

    static final String EXAMPLE = """
            {"orderId":1042,"orderNo":"202606010800000123456789","status":"CLOSED","closeReason":"EXPIRED",\
            "placedAt":"2026-06-01T08:00:00.012Z","payDeadline":"2026-06-01T08:05:00.012Z",\
            "traceId":"4bf92f3577b34da6a3ce929d0e0e4736",\
            "checkBacks":{"count":61,"first":"2026-06-01T08:00:06.950Z","last":"2026-06-01T08:05:01.930Z"},\
            "entries":[\
            {"at":"2026-06-01T08:00:00.012Z","kind":"PLACED","outcome":"PENDING_PAYMENT",\
            "traceId":"4bf92f3577b34da6a3ce929d0e0e4736"},\
            {"at":"2026-06-01T08:00:00.950Z","kind":"EXPIRY_MESSAGE","outcome":"sent","detail":"confirmed by the broker"},\
            {"at":"2026-06-01T08:00:02.310Z","kind":"ALIPAY_CALL","outcome":"success","detail":"alipay.trade.precreate",\
            "traceId":"5ce0e4736a3ce929d4bf92f3577b34da"},\
            {"at":"2026-06-01T08:00:02.330Z","kind":"QR_OFFERED","outcome":"offered",\
            "detail":"payable until 2026-06-01T08:05:00.012Z","traceId":"5ce0e4736a3ce929d4bf92f3577b34da"},\
            {"at":"2026-06-01T08:00:06.950Z","kind":"CHECK_BACK","outcome":"UNKNOW","detail":"check 1: pay deadline ahead"},\
            {"at":"2026-06-01T08:05:01.930Z","kind":"CHECK_BACK","outcome":"COMMIT_MESSAGE",\
            "detail":"check 61: pay deadline passed"},\
            {"at":"2026-06-01T08:05:01.950Z","kind":"ALIPAY_CALL","outcome":"ACQ.TRADE_NOT_EXIST",\
            "detail":"alipay.trade.close"},\
            {"at":"2026-06-01T08:05:01.960Z","kind":"ALIPAY_CALL","outcome":"success","detail":"alipay.trade.cancel"},\
            {"at":"2026-06-01T08:05:01.980Z","kind":"CLOSED","outcome":"EXPIRED","detail":"by expiry message"}],\
            "omitted":0}""";

    private final OrderTimelines timelines;

    public OrderTimelineResource(OrderTimelines timelines) {
        this.timelines = timelines;
    }

    @GET
    @Operation(operationId = "getOrderTimeline",
            summary = "An order's timeline", description = "Admins only. What the service recorded of the order, "
            + "oldest first: its placement, its expiry message, each Alipay call and notify with its outcome, the "
            + "broker's check-backs (the first and each one that decided; checkBacks sums them up), the payment or "
            + "close and by what, refunds. Each entry names the trace it happened in when that trace was kept "
            + "(traceId: look it up in the tracing backend). At most " + OrderTimeline.MAX_ENTRIES + " entries, "
            + "the first and the last half; omitted says how many are left out between them.")
    @APIResponse(responseCode = "200", description = "The timeline", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = OrderTimeline.class),
            examples = @ExampleObject(name = "expired", value = EXAMPLE)))
    @APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
    @APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
    public Uni<OrderTimeline> timeline(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id) {
        return timelines.of(id);
    }
}
