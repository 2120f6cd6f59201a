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
import java.math.BigDecimal;
import java.util.Optional;

/**
 * The merchant's side at Alipay's console, for people and tests: {"outTradeNo": "...", "amount": "1.00",
 * "outRequestNo": "..."} in; 200 with the trade, 400 for a missing field or a bad amount, 404 for a trade
 * Alipay does not know, 409 with Alipay's reason when it refuses the refund.
 */
@Path("/sandbox/alipay/merchant")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProfile(anyOf = {"dev", "test"})
public class MerchantResource {

    public record RefundRequest(String outTradeNo, String amount, String outRequestNo) {
    }

    private final SandboxMerchant merchant;

    public MerchantResource(SandboxMerchant merchant) {
        this.merchant = merchant;
    }

    @POST
    @Path("/refund")
    @NonBlocking
    public Response refund(RefundRequest request) {
        if (request == null || isBlank(request.outTradeNo()) || isBlank(request.outRequestNo())) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "outTradeNo and outRequestNo are required");
        }
        Optional<BigDecimal> amount = Money.parse(request.amount());
        if (amount.isEmpty()) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "amount must be 0.01 to 100000000, two decimals at most");
        }
        try {
            return merchant.refund(request.outTradeNo().trim(), amount.get(), request.outRequestNo().trim())
                    .map(trade -> Response.ok(trade).build())
                    .orElseGet(() -> ErrorAnswer.of(Response.Status.NOT_FOUND, "unknown trade"));
        } catch (TradeRejected refused) {
            return ErrorAnswer.of(Response.Status.CONFLICT, refused.getMessage());
        }
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
