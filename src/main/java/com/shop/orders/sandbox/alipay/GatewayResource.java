package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import java.net.URI;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The openapi gateway URL the application's DefaultAlipayClient is pointed at in dev and test.
 * Runs on the event loop, never on the worker threads the application's blocking SDK calls occupy,
 * so a slow or stuck sandbox answer cannot starve the callers waiting for it.
 */
@Path("/sandbox/alipay/gateway.do")
@IfBuildProfile(anyOf = {"dev", "test"})
public class GatewayResource {

    private final SandboxGateway gateway;

    public GatewayResource(SandboxGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * System parameters come in the query string, biz_content in the form body: both are read raw
     * (the query from Vert.x, the body as bytes) and decoded once, with the request's own charset.
     */
    @POST
    @Consumes(MediaType.WILDCARD)
    @NonBlocking
    public Uni<Response> call(@Context HttpServerRequest request, byte[] body) {
        URI called = URI.create(request.absoluteURI());
        String baseUrl = called.getScheme() + "://" + called.getRawAuthority() + "/sandbox/alipay";
        GatewayReply reply = gateway.handle(request.query(), body == null ? new byte[0] : body, baseUrl);
        Response response = Response.status(reply.httpStatus())
                .type(reply.contentType())
                .entity(reply.body())
                .build();
        Uni<Response> answer = Uni.createFrom().item(response);
        return reply.delay().isZero() ? answer : answer.onItem().delayIt().by(reply.delay());
    }
}
