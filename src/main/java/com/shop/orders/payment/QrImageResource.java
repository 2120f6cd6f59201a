package com.shop.orders.payment;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.shop.orders.order.OrderNotFoundException;
import com.shop.orders.web.ApiContract;

import io.smallrye.mutiny.Uni;

/** QR images behind short-lived signed links, for img tags, which cannot send a bearer token. */
@Path("/api/payments/qr-images/{orderId}")
@PermitAll
@Tag(name = ApiContract.PAYMENT)
public class QrImageResource {

    private final PaymentService payments;
    private final QrImageLinks links;

    public QrImageResource(PaymentService payments, QrImageLinks links) {
        this.payments = payments;
        this.links = links;
    }

    @GET
    @Produces("image/png")
    @Operation(operationId = "getSignedPaymentQrImage",
            summary = "A QR code image behind a signed link", description = "The `qrImageUrl` of a payment: no "
            + "token needed, valid for minutes. A wrong, expired or tampered link is 404.")
    @APIResponse(responseCode = "200", description = "The QR code image",
            content = @Content(mediaType = "image/png", schema = @Schema(type = SchemaType.STRING, format = "binary")))
    @APIResponse(responseCode = "404", ref = ApiContract.NOT_FOUND)
    @APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
    @APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
    public Uni<Response> qrImage(@Parameter(description = "The order's id", example = "1042") @PathParam("orderId") long orderId,
            @Parameter(description = "The trade's channel (absent: alipay, as in links made before channels)",
                    example = "wechat") @QueryParam("channel") @DefaultValue("alipay") String channel,
            @Parameter(description = "Expiry of the link, epoch seconds", example = "1780301100") @QueryParam("expires") long expires,
            @Parameter(description = "The link's signature") @QueryParam("sig") String signature) {
        if (!links.isValid(orderId, channel, expires, signature)) {
            return Uni.createFrom().failure(new OrderNotFoundException(orderId));
        }
        return payments.qrImage(orderId, channel).map(QrImageResource::png);
    }

    static Response png(byte[] bytes) {
        return Response.ok(bytes, "image/png").header("Cache-Control", "private, max-age=60").build();
    }
}
