package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.util.function.BiConsumer;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.shop.orders.sandbox.ErrorAnswer;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;

/**
 * The buyer's side, as the Alipay sandbox's: {"qrCode": "weixin://wxpay/bizpayurl?pr=…"} in (the name the service's
 * payment answer and the Alipay sandbox use; "codeUrl", WeChat's own, is taken too); 200 with the trade, 404 for an
 * unknown code, 409 with the reason when the wallet refuses to scan or pay it.
 */
@Path(WechatGateway.PATH_PREFIX + "/buyer")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatBuyerResource {

    public record CodeUrlRequest(String qrCode, String codeUrl) {

        String code() {
            return qrCode != null ? qrCode : codeUrl;
        }
    }

    private final WechatTrades trades;
    private final WechatGateway gateway;

    public WechatBuyerResource(WechatTrades trades, WechatGateway gateway) {
        this.trades = trades;
        this.gateway = gateway;
    }

    @POST
    @Path("/scan")
    @NonBlocking
    public Response scan(CodeUrlRequest request) {
        return act(request, (trade, now) -> trade.scan(now));
    }

    @POST
    @Path("/pay")
    @NonBlocking
    public Response pay(CodeUrlRequest request) {
        return act(request, (trade, now) -> {
            trade.pay(now);
            gateway.paid(trade);
        });
    }

    private Response act(CodeUrlRequest request, BiConsumer<WechatTrade, Instant> action) {
        if (request == null || request.code() == null || request.code().isBlank()) {
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "qrCode is required");
        }
        return trades.byCodeUrl(request.code().trim()).map(trade -> {
            try {
                action.accept(trade, Instant.now());
                return Response.ok(trade.view()).build();
            } catch (WechatBuyerRefused refused) {
                return ErrorAnswer.of(Response.Status.CONFLICT, refused.getMessage());
            }
        }).orElseGet(() -> ErrorAnswer.of(Response.Status.NOT_FOUND, "unknown code"));
    }
}
