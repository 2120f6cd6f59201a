package com.shop.orders.sandbox.wechat;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.arc.profile.IfBuildProfile;
import io.vertx.core.http.HttpServerRequest;

/**
 * WeChat Pay's trade bill under /sandbox/wechat, as at api.mch.weixin.qq.com: where the day's bill is (signed like
 * every 2xx answer) and its download (unsigned, as WeChat's). Blocking (latency knobs), so on worker threads.
 */
@Path(WechatGateway.PATH_PREFIX + "/v3")
@Consumes(MediaType.WILDCARD)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatBillResource {

    private final WechatTradeBills bills;
    private final WechatResponses responses;

    public WechatBillResource(WechatTradeBills bills, WechatResponses responses) {
        this.bills = bills;
        this.responses = responses;
    }

    @GET
    @Path("/bill/tradebill")
    public Response tradeBill(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @HeaderParam(WechatGatewayResource.SERIAL) String serial, @QueryParam("bill_date") String billDate,
            @QueryParam("bill_type") String billType, @QueryParam("tar_type") String tarType,
            @Context HttpServerRequest request) {
        return responses.answer(bills.locate(request.uri(), authorization, billDate, billType, tarType), serial);
    }

    @GET
    @Path("/billdownload/file")
    public Response download(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @QueryParam("token") String token, @Context HttpServerRequest request) {
        WechatTradeBills.Download download = bills.download(request.uri(), authorization, token);
        if (download.error() != null) {
            return responses.answer(download.error(), (String) null);
        }
        return Response.ok(download.file(), MediaType.APPLICATION_OCTET_STREAM).build();
    }
}
