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

import com.shop.orders.sandbox.wechat.WechatSandboxConfig.SignedWith;

import io.quarkus.arc.profile.IfBuildProfile;
import io.vertx.core.http.HttpServerRequest;

/**
 * WeChat Pay's platform-certificate download under /sandbox/wechat. Signed under the certificate it serves, as
 * WeChat's: the request names no serial (the SDK downloads before it knows one), and the SDK does not check it.
 */
@Path(WechatGateway.PATH_PREFIX + "/v3/certificates")
@Consumes(MediaType.WILDCARD)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatCertificatesResource {

    private final WechatCertificates certificates;
    private final WechatResponses responses;

    public WechatCertificatesResource(WechatCertificates certificates, WechatResponses responses) {
        this.certificates = certificates;
        this.responses = responses;
    }

    @GET
    public Response download(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization,
            @QueryParam("algorithm_type") String algorithmType, @Context HttpServerRequest request) {
        return responses.answer(certificates.download(request.uri(), authorization, algorithmType),
                SignedWith.CERTIFICATE);
    }
}
