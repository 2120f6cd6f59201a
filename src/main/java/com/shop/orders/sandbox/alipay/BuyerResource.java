package com.shop.orders.sandbox.alipay;

import com.shop.orders.sandbox.ErrorAnswer;
import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import java.util.function.Function;

/**
 * The buyer's side for people and tests: {"qrCode": "..."} in; 200 with the trade, 404 for an unknown
 * QR code, 409 with the reason when the buyer cannot scan or pay.
 */
@Path("/sandbox/alipay/buyer")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProfile(anyOf = {"dev", "test"})
public class BuyerResource {

    public record QrCodeRequest(String qrCode) {
    }

    private final SandboxBuyer buyer;

    public BuyerResource(SandboxBuyer buyer) {
        this.buyer = buyer;
    }

    @POST
    @Path("/scan")
    @NonBlocking
    public Response scan(QrCodeRequest request) {
        return act(request, buyer::scan);
    }

    @POST
    @Path("/pay")
    @NonBlocking
    public Response pay(QrCodeRequest request) {
        return act(request, buyer::pay);
    }

    private static Response act(QrCodeRequest request, Function<String, Optional<TradeSnapshot>> action) {
        if (request == null || request.qrCode() == null || request.qrCode().isBlank()) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "qrCode is required");
        }
        try {
            return action.apply(request.qrCode().trim())
                    .map(trade -> Response.ok(trade).build())
                    .orElseGet(() -> ErrorAnswer.of(Response.Status.NOT_FOUND, "unknown QR code"));
        } catch (BuyerActionRefused refused) {
            return ErrorAnswer.of(Response.Status.CONFLICT, refused.getMessage());
        }
    }
}
