package com.shop.orders.live;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.RestStreamElementType;

import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.Roles;
import com.shop.orders.web.ApiContract;

import io.smallrye.mutiny.Multi;

/**
 * An order's live status as server-sent events: a {@code status} event with the status now, one more when
 * the order is paid or closed, then the end of the stream; heartbeat comments in between. Runs on the event
 * loop: an open stream costs a listener and two timers, no thread.
 */
@Path("/api/orders/{id}/events")
@RolesAllowed(Roles.MEMBER)
@Tag(name = ApiContract.ORDERS)
@SecurityRequirement(name = ApiContract.BEARER)
public class OrderEventsResource {

    static final String STATUS_EVENT = "status";

    private final OrderStatusFeed feed;
    private final Ticks ticks;
    private final LiveStatusConfig config;
    private final CurrentMember member;

    public OrderEventsResource(OrderStatusFeed feed, Ticks ticks, LiveStatusConfig config, CurrentMember member) {
        this.feed = feed;
        this.ticks = ticks;
        this.config = config;
        this.member = member;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @OwnedOrder
    @ResponseHeader(name = "Cache-Control", value = "no-store")
    // Tells nginx-style proxies to pass events on at once instead of buffering the response.
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Operation(summary = "The order's status, live (server-sent events)", description = "A `status` event (data: "
            + "OrderStatusEvent) with the order as it is, one more when it is paid or closed, then the stream ends. "
            + "Comments (`:heartbeat`) keep the connection alive while the order waits. The member's own orders "
            + "only; the bearer token goes in the Authorization header, so read it with fetch rather than EventSource.")
    @APIResponse(responseCode = "200", description = "The event stream", content = @Content(
            mediaType = MediaType.SERVER_SENT_EVENTS, schema = @Schema(implementation = OrderStatusEvent.class),
            examples = @ExampleObject(name = "paid", value = """
                    event:status
                    data:{"orderId":1042,"status":"PENDING_PAYMENT","payDeadline":"2026-06-01T08:05:00Z","at":"2026-06-01T08:00:00Z"}

                    :heartbeat

                    event:status
                    data:{"orderId":1042,"status":"PAID","payDeadline":"2026-06-01T08:05:00Z","at":"2026-06-01T08:01:12Z"}

                    """)))
    @APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
    @APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
    public Multi<OutboundSseEvent> events(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id,
            @Context Sse sse) {
        OutboundSseEvent end = sse.newEventBuilder().comment("end").build();
        Multi<OutboundSseEvent> statuses = feed.follow(id, member.id())
                .map(status -> sse.newEventBuilder().name(STATUS_EVENT).data(OrderStatusEvent.class, status).build())
                .onCompletion().continueWith(end);
        Multi<OutboundSseEvent> heartbeats = ticks.every(config.heartbeat())
                .map(tick -> sse.newEventBuilder().comment("heartbeat").build());
        // Heartbeats never end by themselves: the stream ends with the statuses, at the marker.
        return Multi.createBy().merging().streams(statuses, heartbeats).select().first(event -> event != end);
    }
}
