package com.shop.orders.sandbox.wechat;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.shop.orders.sandbox.FaultKnobChange;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;

/** The WeChat sandbox's fault knobs over HTTP, as the Alipay sandbox's (tests inject WechatFaults). */
@Path(WechatGateway.PATH_PREFIX + "/faults")
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatFaultsResource {

    private final WechatFaults faults;

    public WechatFaultsResource(WechatFaults faults) {
        this.faults = faults;
    }

    @GET
    @NonBlocking
    public WechatFaultSettings current() {
        return WechatFaultSettings.of(faults);
    }

    /** Changes the knobs present in the body and answers all of them. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @NonBlocking
    public Response change(WechatFaultSettings settings) {
        return FaultKnobChange.apply(settings, knobs -> knobs.applyTo(faults), () -> WechatFaultSettings.of(faults));
    }

    @DELETE
    @NonBlocking
    public WechatFaultSettings reset() {
        faults.reset();
        return WechatFaultSettings.of(faults);
    }
}
