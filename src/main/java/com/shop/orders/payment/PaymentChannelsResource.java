package com.shop.orders.payment;


import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import com.shop.orders.web.ApiContract;

/** Which wallets the storefront may offer: public, like the catalog. */
@Path("/api/payment-channels")
@PermitAll
@Tag(name = ApiContract.PAYMENT)
@APIResponse(responseCode = "500", ref = ApiContract.INTERNAL_ERROR)
@APIResponse(responseCode = "503", ref = ApiContract.SERVICE_UNAVAILABLE)
public class PaymentChannelsResource {

    private final PaymentChannels channels;

    public PaymentChannelsResource(PaymentChannels channels) {
        this.channels = channels;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "listPaymentChannels", summary = "The payment channels this shop offers",
            description = "The names a payment request may give as `channel`.")
    @APIResponse(responseCode = "200", description = "The configured channels",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = PaymentChannelsView.class),
                    examples = @ExampleObject(name = "channels", value = """
                            {"channels":["alipay","wechat"]}""")))
    public PaymentChannelsView channels() {
        return new PaymentChannelsView(channels.offered());
    }
}
