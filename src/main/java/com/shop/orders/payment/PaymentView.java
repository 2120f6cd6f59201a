package com.shop.orders.payment;

import java.time.Instant;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What the storefront shows the buyer: the channel, the QR code (its content), a link to its image, and when it
 * stops working. Every field is always there.
 */
public record PaymentView(
        @Schema(required = true, description = "The wallet the code is for", example = "alipay") String channel,
        @Schema(required = true, description = "The content to put in a QR image") String qrCode,
        @Schema(required = true, description = "A short-lived signed link to the code's PNG") String qrImageUrl,
        @Schema(required = true, description = "The order's pay deadline: the wallet refuses payment after it")
        Instant expiresAt) {
}
