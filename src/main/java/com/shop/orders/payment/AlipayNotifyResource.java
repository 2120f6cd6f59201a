package com.shop.orders.payment;

import java.util.HashMap;
import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;

/**
 * Alipay's asynchronous payment notify. Alipay retries until the body is exactly "success",
 * so anything not yet safely handled answers "failure".
 */
@Path("/api/payments/alipay/notify")
@PermitAll
public class AlipayNotifyResource {

    private static final Logger LOG = Logger.getLogger(AlipayNotifyResource.class);

    private final AlipayNotifyHandler handler;

    public AlipayNotifyResource(AlipayNotifyHandler handler) {
        this.handler = handler;
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_PLAIN)
    public Uni<String> notify(MultivaluedMap<String, String> form) {
        Map<String, String> params = new HashMap<>();
        form.forEach((name, values) -> params.put(name, values.isEmpty() ? "" : values.get(0)));
        return handler.handle(params)
                .map(handled -> handled ? "success" : "failure")
                // Alipay will send it again: nothing is lost by answering "failure" now.
                .onFailure().invoke(e -> LOG.warnf("Alipay notify for %s not handled: %s", params.get("out_trade_no"), e.toString()))
                .onFailure().recoverWithItem("failure");
    }
}
