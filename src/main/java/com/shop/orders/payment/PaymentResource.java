package com.shop.orders.payment;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.Roles;
import com.shop.orders.web.ApiContract;
import com.shop.orders.web.Problem;

import io.smallrye.mutiny.Uni;

@Path("/api/orders/{id}/payment")
@RolesAllowed(Roles.MEMBER)
@Tag(name = ApiContract.PAYMENT)
@SecurityRequirement(name = ApiContract.BEARER)
@APIResponse(responseCode = "401", ref = ApiContract.UNAUTHORIZED)
@APIResponse(responseCode = "403", ref = ApiContract.FORBIDDEN)
@APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
@APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
@APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
public class PaymentResource {

    private final PaymentService payments;
    private final CurrentMember member;
    private final ObjectMapper json;

    public PaymentResource(PaymentService payments, CurrentMember member, ObjectMapper json) {
        this.payments = payments;
        this.member = member;
        this.json = json;
    }

    @POST
    // Any type, so that a request without a body (and so without a Content-Type: the storefront before channels)
    // reaches the method; a body must be JSON (paymentRequest).
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "requestPayment",
            summary = "The order's payment QR code", description = "Asks the wallet named in the body (`channel`, "
            + "one of GET /api/payment-channels; no body: Alipay) once per order: Alipay's face-to-face precreate, "
            + "payable until the order's pay deadline; later calls return the same code and never move the deadline. "
            + "`qrCode` is the content to put in a QR image; `qrImageUrl` is a short-lived signed link to its PNG, "
            + "usable in an img tag. A channel this shop does not offer is a 400.")
    @APIResponse(responseCode = "200", description = "The QR code", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = PaymentView.class), examples = @ExampleObject(name = "qr", value = """
                    {"channel":"alipay","qrCode":"https://qr.alipay.com/bax03431ljhokirwl38f00a7",\
                    "qrImageUrl":"/api/payments/qr-images/1042?expires=1780301100&sig=Xk3p...",\
                    "expiresAt":"2026-06-01T08:05:00Z"}""")))
    @APIResponse(responseCode = "400", ref = ApiContract.BAD_REQUEST)
    @APIResponse(responseCode = "409", description = "The order is paid or closed (`orderStatus`), or its pay deadline has passed",
            content = @Content(mediaType = Problem.MEDIA_TYPE, schema = @Schema(ref = ApiContract.PROBLEM),
                    examples = @ExampleObject(name = "closed", value = """
                            {"type":"about:blank","title":"Order not payable","status":409,\
                            "detail":"Order 1042 is CLOSED","instance":"/api/orders/1042/payment","orderStatus":"CLOSED"}""")))
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "502", ref = ApiContract.BAD_GATEWAY)
    public Uni<PaymentView> request(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long orderId,
            @RequestBody(required = false, description = "The wallet; no body pays with Alipay",
                    content = @Content(mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = PaymentRequest.class),
                            examples = @ExampleObject(name = "alipay", value = """
                                    {"channel":"alipay"}"""))) String body,
            @Context HttpHeaders headers) throws JsonProcessingException {
        PaymentRequest request = paymentRequest(body, headers.getMediaType());
        return payments.requestPayment(orderId, member.id(), request == null ? null : request.channel());
    }

    /** No body: none asked for. A body must be JSON (415 otherwise); malformed JSON is a 400 (ProblemMappers). */
    private PaymentRequest paymentRequest(String body, MediaType type) throws JsonProcessingException {
        if (body == null || body.isEmpty()) {
            return null;
        }
        if (type == null || !type.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
            throw new NotSupportedException();
        }
        return json.readValue(body, PaymentRequest.class);
    }

    @GET
    @Path("/qr.png")
    @Produces("image/png")
    @Operation(operationId = "getPaymentQrImage",
            summary = "The order's QR code as PNG", description = "For clients that can send the bearer token; "
            + "img tags use the signed `qrImageUrl` instead. 404 until a payment has been requested on the channel.")
    @APIResponse(responseCode = "200", description = "The QR code image",
            content = @Content(mediaType = "image/png", schema = @Schema(type = SchemaType.STRING, format = "binary")))
    public Uni<Response> qrImage(@Parameter(description = "The order's id", example = "1042") @PathParam("id") long orderId,
            @Parameter(description = "The trade's channel (absent: the default one, as for a payment request without "
                    + "a body)", example = "wechat") @QueryParam("channel") String channel) {
        return payments.qrImage(orderId, member.id(), channel).map(QrImageResource::png);
    }
}
