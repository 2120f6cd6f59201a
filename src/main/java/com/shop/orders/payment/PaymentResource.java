package com.shop.orders.payment;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.shop.orders.member.CurrentMember;
import com.shop.orders.member.Roles;

import io.smallrye.mutiny.Uni;

@Path("/api/orders/{id}/payment")
@RolesAllowed(Roles.MEMBER)
public class PaymentResource {

    private final PaymentService payments;
    private final CurrentMember member;

    public PaymentResource(PaymentService payments, CurrentMember member) {
        this.payments = payments;
        this.member = member;
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<PaymentView> request(@PathParam("id") long orderId) {
        return payments.requestPayment(orderId, member.id());
    }

    @GET
    @Path("/qr.png")
    @Produces("image/png")
    public Uni<Response> qrImage(@PathParam("id") long orderId) {
        return payments.qrImage(orderId, member.id()).map(QrImageResource::png);
    }
}
