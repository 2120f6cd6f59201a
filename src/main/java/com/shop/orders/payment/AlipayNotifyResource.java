package com.shop.orders.payment;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Alipay's asynchronous payment notify. Alipay retries until the body is exactly "success", so anything
 * not yet safely handled answers "failure". Unauthenticated: the body is read raw and decoded here, so
 * that no malformed body can reach a framework error (500, stack trace in the log).
 */
@Path("/api/payments/alipay/notify")
@PermitAll
public class AlipayNotifyResource {

    private static final Logger LOG = Logger.getLogger(AlipayNotifyResource.class);
    private static final String SUCCESS = "success";
    private static final String FAILURE = "failure";

    private final AlipayNotifyHandler handler;
    private final MeterRegistry registry;

    public AlipayNotifyResource(AlipayNotifyHandler handler, MeterRegistry registry) {
        this.handler = handler;
        this.registry = registry;
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_PLAIN)
    public Uni<String> notify(String body) {
        Map<String, String> params;
        try {
            params = FormBody.decode(body, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            registry.counter("payments.notify", "result", "rejected", "reason", "malformed").increment();
            LOG.debug("Alipay notify rejected: not form-encoded");
            return Uni.createFrom().item(FAILURE);
        }
        return handler.handle(params)
                .map(handled -> handled ? SUCCESS : FAILURE)
                // Alipay will send it again: nothing is lost by answering "failure" now.
                .onFailure().invoke(e -> LOG.warnf("Alipay notify not handled: %s", e.toString()))
                .onFailure().recoverWithItem(FAILURE);
    }
}
