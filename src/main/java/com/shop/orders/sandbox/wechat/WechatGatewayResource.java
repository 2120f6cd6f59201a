package com.shop.orders.sandbox.wechat;

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
 * body included, under what the request's Wechatpay-Serial names ({@link WechatResponses}); blocking (latency
 * knobs), so on worker threads.
 */
@Path(WechatGateway.PATH_PREFIX + "/v3/pay/transactions")
@Consumes(MediaType.WILDCARD)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatGatewayResource {

    /** The serial of the key the merchant verifies answers with, which the SDK sends since 0.2.15. */
    static final String SERIAL = "Wechatpay-Serial";

    private final WechatGateway gateway;
    private final WechatResponses responses;

    public WechatGatewayResource(WechatGateway gateway, WechatResponses responses) {
        this.gateway = gateway;
        this.responses = responses;
    }

    @POST
    @Path("/native")
    public Response prepay(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @HeaderParam(SERIAL) String serial, String body, @Context HttpServerRequest request) {
        return responses.answer(gateway.prepay(request.uri(), authorization, body == null ? "" : body), serial);
    }

    @GET
    @Path("/out-trade-no/{outTradeNo}")
    public Response query(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @HeaderParam(SERIAL) String serial, @PathParam("outTradeNo") String outTradeNo,
            @QueryParam("mchid") String mchid, @Context HttpServerRequest request) {
        return responses.answer(gateway.query(request.uri(), authorization, outTradeNo, mchid), serial);
    }

    @POST
    @Path("/out-trade-no/{outTradeNo}/close")
    public Response close(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @HeaderParam(SERIAL) String serial, @PathParam("outTradeNo") String outTradeNo, String body,
            @Context HttpServerRequest request) {
        return responses.answer(gateway.close(request.uri(), authorization, outTradeNo, body == null ? "" : body),
                serial);
    }
}
