package com.shop.orders.payment.alipay;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import org.jboss.logging.Logger;

import com.shop.orders.web.ApiContract;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Alipay's asynchronous payment notify. Alipay retries until the body is exactly "success", so anything
 * not yet safely handled answers "failure". Unauthenticated: the body is read raw and decoded here, so
 * that no malformed body can reach a framework error (500, stack trace in the log).
 */
@Path("/api/payments/alipay/notify")
@PermitAll
@Tag(name = ApiContract.PAYMENT)
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
    @Operation(operationId = "receiveAlipayNotify",
            summary = "Alipay's asynchronous payment notify", description = "Called by Alipay, not by clients. "
            + "The parameters are verified against Alipay's signature, the app id, the order and its amount.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_FORM_URLENCODED,
            schema = @Schema(type = SchemaType.OBJECT, description = "Alipay's signed notify parameters "
                    + "(notify_time, app_id, out_trade_no, trade_no, trade_status, total_amount, sign, sign_type, ...)"),
            examples = @ExampleObject(name = "paid", value = "notify_type=trade_status_sync&app_id=2021000000000001"
                    + "&out_trade_no=202606010800000123456789&trade_no=2026060122001400000000000001"
                    + "&trade_status=TRADE_SUCCESS&total_amount=118.00&sign_type=RSA2&sign=...")))
    @APIResponse(responseCode = "200", description = "`success` once the notify is handled (also for a duplicate); "
            + "`failure` makes Alipay send it again later",
            content = @Content(mediaType = MediaType.TEXT_PLAIN,
                    schema = @Schema(type = SchemaType.STRING, enumeration = { "success", "failure" })))
    @APIResponse(responseCode = "413", ref = ApiContract.PAYLOAD_TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiContract.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
    @APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
    public Uni<String> notify(String body) {
        Map<String, String> params;
        try {
            params = FormBody.decode(body, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            registry.counter("payments.notify", "channel", AlipayChannel.NAME, "result", "rejected", "reason",
                    "malformed").increment();
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
