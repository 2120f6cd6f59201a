package com.shop.orders.live;

import java.util.Locale;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
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
import com.shop.orders.web.Problem;
import com.shop.orders.web.ProblemException;

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
    private final StreamSlots slots;

    public OrderEventsResource(OrderStatusFeed feed, Ticks ticks, LiveStatusConfig config, CurrentMember member,
            StreamSlots slots) {
        this.feed = feed;
        this.ticks = ticks;
        this.config = config;
        this.member = member;
        this.slots = slots;
    }

    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    @OwnedOrder
    @ResponseHeader(name = "Cache-Control", value = "no-store")
    // Tells nginx-style proxies to pass events on at once instead of buffering the response.
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Operation(operationId = "streamOrderStatus",
            summary = "The order's status, live (server-sent events)", description = "A `status` event (data: "
            + "OrderStatusEvent) with the order as it is, one more when it is paid or closed, then the stream ends. "
            + "Comments (`:heartbeat`) keep the connection alive while the order waits. The member's own orders "
            + "only; the bearer token goes in the Authorization header, so read it with fetch rather than EventSource.")
    // The schema describes the whole body (OpenAPI 3.1 has no schema per event), which is text: a contract proxy
    // holds the stream to it as a string. The data of each event is an OrderStatusEvent, named in the description.
    @APIResponse(responseCode = "200", description = "The event stream: `status` events whose data is an "
            + "OrderStatusEvent as JSON, and `:heartbeat` comments", content = @Content(
            mediaType = MediaType.SERVER_SENT_EVENTS, schema = @Schema(type = SchemaType.STRING),
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
    @APIResponse(responseCode = "429", description = "Too many streams open on this instance: of this order "
            + "(`shop.live-status.max-streams-per-order`, 5 by default) or of this member "
            + "(`shop.live-status.max-streams-per-member`, 20). Nothing was opened; close a stream, or come back after "
            + "Retry-After seconds",
            headers = @Header(name = HttpHeaders.RETRY_AFTER, description = "Seconds to wait before trying again",
                    schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = @ExampleObject(name = "perOrder", value = """
                            {"type":"about:blank","title":"Too many streams","status":429,\
                            "detail":"Order 1042 has 5 live-status streams open here, the most allowed",\
                            "instance":"/api/orders/1042/events","cap":"order","max":5}""")))
    @APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
    @APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
    public Multi<OutboundSseEvent> events(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long id,
            @Context Sse sse) {
        StreamSlots.Slot slot = slots.take(member.id(), id);
        if (slot.refusedBy() != null) {
            throw tooManyStreams(id, slot.refusedBy());
        }
        OutboundSseEvent end = sse.newEventBuilder().comment("end").build();
        Multi<OutboundSseEvent> statuses = feed.follow(id, member.id())
                .map(status -> sse.newEventBuilder().name(STATUS_EVENT).data(OrderStatusEvent.class, status).build())
                .onCompletion().continueWith(end);
        Multi<OutboundSseEvent> heartbeats = ticks.every(config.heartbeat())
                .map(tick -> sse.newEventBuilder().comment("heartbeat").build());
        // Heartbeats never end by themselves: the stream ends with the statuses, at the marker.
        return Multi.createBy().merging().streams(statuses, heartbeats).select().first(event -> event != end)
                .onTermination().invoke(slot.release());
    }

    private ProblemException tooManyStreams(long orderId, StreamSlots.Cap cap) {
        int max = cap == StreamSlots.Cap.ORDER ? config.maxStreamsPerOrder() : config.maxStreamsPerMember();
        String detail = cap == StreamSlots.Cap.ORDER
                ? "Order " + orderId + " has " + max + " live-status streams open here, the most allowed"
                : "This member has " + max + " live-status streams open here, the most allowed";
        return new ProblemException(429, "Too many streams", detail,
                Map.of("cap", cap.name().toLowerCase(Locale.ROOT), "max", max))
                .withHeader(HttpHeaders.RETRY_AFTER, Long.toString(config.refusedRetryAfter().toSeconds()));
    }
}
