package com.shop.orders.payment;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;

import com.shop.orders.order.OrderNotFoundException;

import io.smallrye.mutiny.Uni;

/** QR images behind short-lived signed links, for img tags, which cannot send a bearer token. */
@Path("/api/payments/qr-images/{orderId}")
@PermitAll
public class QrImageResource {

    private final PaymentService payments;
    private final QrImageLinks links;

    public QrImageResource(PaymentService payments, QrImageLinks links) {
        this.payments = payments;
        this.links = links;
    }

    @GET
    @Produces("image/png")
    public Uni<Response> qrImage(@PathParam("orderId") long orderId, @QueryParam("expires") long expires,
            @QueryParam("sig") String signature) {
        if (!links.isValid(orderId, expires, signature)) {
            return Uni.createFrom().failure(new OrderNotFoundException(orderId));
        }
        return payments.qrImage(orderId).map(QrImageResource::png);
    }

    static Response png(byte[] bytes) {
        return Response.ok(bytes, "image/png").header("Cache-Control", "private, max-age=60").build();
    }
}
