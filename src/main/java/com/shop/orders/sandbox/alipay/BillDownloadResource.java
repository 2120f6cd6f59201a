package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/** The trade bill links that {@link TradeBills} hands out, in dev and test builds. */
@Path("/sandbox/alipay" + TradeBills.DOWNLOAD_PATH + "{token}")
@IfBuildProfile(anyOf = {"dev", "test"})
public class BillDownloadResource {

    private final TradeBills bills;

    public BillDownloadResource(TradeBills bills) {
        this.bills = bills;
    }

    @GET
    public Response download(@PathParam("token") String token) {
        return bills.download(token)
                .map(zip -> Response.ok(zip, "application/zip").build())
                .orElseGet(() -> Response.status(404).type("text/plain;charset=utf-8")
                        .entity("no such bill, or its link has expired").build());
    }
}
