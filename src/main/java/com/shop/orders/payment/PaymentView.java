package com.shop.orders.payment;

import java.time.Instant;

/** What the storefront shows the buyer: the QR code, a link to its image, and when it stops working. */
public record PaymentView(String qrCode, String qrImageUrl, Instant expiresAt) {
}
