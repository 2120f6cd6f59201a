package com.shop.orders.payment;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The channels this shop has configured, the ones a buyer may name in a payment request. */
public record PaymentChannelsView(
        @Schema(required = true, description = "Channel names, e.g. alipay") List<String> channels) {
}
