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
 * body included ({@link WechatSignedHeaders}); blocking (latency knobs), so on worker threads.
 */
@Path(WechatGateway.PATH_PREFIX + "/v3/pay/transactions")
@Consumes(MediaType.WILDCARD)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatGatewayResource {

    private final WechatGateway gateway;
    private final WechatSignedHeaders signed;

    public WechatGatewayResource(WechatGateway gateway, WechatSignedHeaders signed) {
        this.gateway = gateway;
        this.signed = signed;
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
            signed.of(answer.body()).forEach(response::header);
        }
        return response.build();
    }
}
