package com.shop.orders.payment;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** What the buyer asks to pay with; no body, or no channel, means Alipay, as before channels existed. */
// Read by PaymentResource's own ObjectMapper call (the body is optional), not as a JAX-RS entity: the executable
// needs it registered.
@RegisterForReflection
@Schema(description = "The wallet to pay with")
public record PaymentRequest(
        @Schema(description = "A channel this shop offers (GET /api/payment-channels); absent: alipay",
                example = "alipay") String channel) {
}
