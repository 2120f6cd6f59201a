package com.shop.orders.checkout;

import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.common.annotation.NonBlocking;

/**
 * Tells the checkout page it runs in a dev or test build, where it may offer test tokens and the wallet
 * sandboxes' buyer pages. A production build has no such endpoint: the page gets 404 and offers neither.
 */
@Path("/dev/checkout")
@IfBuildProfile(anyOf = { "dev", "test" })
@PermitAll
public class DevCheckoutResource {

    /** {@code sandboxBuyerPage}: Alipay's, as before there were channels; {@code sandboxBuyerPages}: by channel. */
    public record DevTools(String tokenEndpoint, String sandboxBuyerPage, Map<String, String> sandboxBuyerPages) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @NonBlocking
    public DevTools tools() {
        return new DevTools("/dev/token", "/sandbox/alipay",
                Map.of("alipay", "/sandbox/alipay", "wechat", "/sandbox/wechat"));
    }
}
