package com.shop.orders.sandbox.alipay;

import com.shop.orders.sandbox.FaultKnobChange;
import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The fault knobs over HTTP, for people trying the application by hand (tests inject SandboxFaults). */
@Path("/sandbox/alipay/faults")
@Produces(MediaType.APPLICATION_JSON)
@IfBuildProfile(anyOf = {"dev", "test"})
public class FaultsResource {

    private final SandboxFaults faults;

    public FaultsResource(SandboxFaults faults) {
        this.faults = faults;
    }

    @GET
    @NonBlocking
    public FaultSettings current() {
        return FaultSettings.of(faults);
    }

    /** Changes the knobs present in the body and answers all of them. */
    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @NonBlocking
    public Response change(FaultSettings settings) {
        return FaultKnobChange.apply(settings, knobs -> knobs.applyTo(faults), () -> FaultSettings.of(faults));
    }

    @DELETE
    @NonBlocking
    public FaultSettings reset() {
        faults.reset();
        return FaultSettings.of(faults);
    }
}
