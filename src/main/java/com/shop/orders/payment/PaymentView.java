package com.shop.orders.payment;

import java.time.Instant;

/**
 * What the storefront shows the buyer: the channel, the QR code (its content), a link to its image, and when it
 * stops working.
 */
public record PaymentView(String channel, String qrCode, String qrImageUrl, Instant expiresAt) {
}
