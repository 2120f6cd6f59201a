package com.shop.orders.sandbox.wechat;

import java.time.Instant;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.arc.profile.IfBuildProfile;
import io.vertx.core.http.HttpServerRequest;

/**
 * WeChat Pay's API host, under /sandbox/wechat: the merchant's client (the official SDK, its host rewritten to this
 * one in dev and test) calls the same paths as at api.mch.weixin.qq.com. Every 2xx answer is signed, a 204's empty
 * body included, with the Wechatpay-* headers written exactly as WeChat writes them (the SDK looks them up
 * case-sensitively); blocking (latency knobs), so on worker threads.
 */
@Path(WechatGateway.PATH_PREFIX + "/v3/pay/transactions")
@Consumes(MediaType.WILDCARD)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatGatewayResource {

    private final WechatGateway gateway;
    private final WechatSandboxKeys keys;
    private final WechatFaults faults;

    public WechatGatewayResource(WechatGateway gateway, WechatSandboxKeys keys, WechatFaults faults) {
        this.gateway = gateway;
        this.keys = keys;
        this.faults = faults;
    }

    @POST
    @Path("/native")
    public Response prepay(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization, String body,
            @Context HttpServerRequest request) {
        return answer(gateway.prepay(request.uri(), authorization, body == null ? "" : body));
    }

    @GET
    @Path("/out-trade-no/{outTradeNo}")
    public Response query(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @PathParam("outTradeNo") String outTradeNo, @QueryParam("mchid") String mchid,
            @Context HttpServerRequest request) {
        return answer(gateway.query(request.uri(), authorization, outTradeNo, mchid));
    }

    @POST
    @Path("/out-trade-no/{outTradeNo}/close")
    public Response close(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @PathParam("outTradeNo") String outTradeNo, String body, @Context HttpServerRequest request) {
        return answer(gateway.close(request.uri(), authorization, outTradeNo, body == null ? "" : body));
    }

    private Response answer(WechatGateway.Answer answer) {
        Response.ResponseBuilder response = Response.status(answer.status())
                .header("Request-ID", "08" + WechatSigning.nonce(30));
        if (answer.body() != null) {
            response.entity(answer.body()).type("application/json; charset=utf-8");
        }
        if (answer.signed()) {
            String timestamp = String.valueOf(Instant.now().plus(faults.timestampSkew()).getEpochSecond());
            String nonce = WechatSigning.nonce(32);
            response.header("Wechatpay-Timestamp", timestamp)
                    .header("Wechatpay-Nonce", nonce)
                    .header("Wechatpay-Serial", faults.wrongSerial() ? "PUB_KEY_ID_NOT_CONFIGURED" : keys.publicKeyId())
                    .header("Wechatpay-Signature-Type", WechatSigning.SCHEMA)
                    .header("Wechatpay-Signature", WechatSigning.sign(
                            WechatSigning.answerMessage(timestamp, nonce, answer.body()), keys.platformPrivateKey()));
        }
        return response.build();
    }
}
