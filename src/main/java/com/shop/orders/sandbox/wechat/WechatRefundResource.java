package com.shop.orders.sandbox.wechat;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.arc.profile.IfBuildProfile;
import io.vertx.core.http.HttpServerRequest;

/**
 * WeChat Pay's domestic refunds under /sandbox/wechat, as at api.mch.weixin.qq.com: create and query by
 * out_refund_no, answers signed under what the request's Wechatpay-Serial names; blocking (latency knobs).
 */
@Path(WechatGateway.PATH_PREFIX + "/v3/refund/domestic/refunds")
@Consumes(MediaType.WILDCARD)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatRefundResource {

    private final WechatRefunds refunds;
    private final WechatResponses responses;

    public WechatRefundResource(WechatRefunds refunds, WechatResponses responses) {
        this.refunds = refunds;
        this.responses = responses;
    }

    @POST
    public Response create(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @HeaderParam(WechatGatewayResource.SERIAL) String serial, String body,
            @Context HttpServerRequest request) {
        return responses.answer(refunds.create(request.uri(), authorization, body == null ? "" : body), serial);
    }

    @GET
    @Path("/{outRefundNo}")
    public Response query(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @HeaderParam(WechatGatewayResource.SERIAL) String serial, @PathParam("outRefundNo") String outRefundNo,
            @Context HttpServerRequest request) {
        return responses.answer(refunds.query(request.uri(), authorization, outRefundNo), serial);
    }
}
