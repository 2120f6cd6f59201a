package com.shop.orders.payment;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

/**
 * Short-lived signed links to an order's QR image, so that an {@code <img>} tag (which cannot
 * send a bearer token) can load it while nobody else can.
 */
@ApplicationScoped
public class QrImageLinks {

    private static final Logger LOG = Logger.getLogger(QrImageLinks.class);

    private final SecretKeySpec key;
    private final PaymentConfig config;
    private final Clock clock;

    public QrImageLinks(PaymentConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
        byte[] secret = config.qrUrlSecret().filter(s -> !s.isBlank())
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseGet(() -> {
                    LOG.warn("shop.payment.qr-url-secret is not set: QR image links are valid on this instance only");
                    byte[] random = new byte[32];
                    new SecureRandom().nextBytes(random);
                    return random;
                });
        this.key = new SecretKeySpec(secret, "HmacSHA256");
    }

    public String linkFor(long orderId) {
        long expires = clock.instant().plus(config.qrUrlTtl()).getEpochSecond();
        return "/api/payments/qr-images/" + orderId + "?expires=" + expires + "&sig=" + sign(orderId, expires);
    }

    /** A link is valid until it expires, and never expires later than a link made now would. */
    public boolean isValid(long orderId, long expires, String signature) {
        long now = clock.instant().getEpochSecond();
        if (signature == null || expires < now || expires > now + config.qrUrlTtl().toSeconds()) {
            return false;
        }
        return MessageDigest.isEqual(sign(orderId, expires).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }

    private String sign(long orderId, long expires) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            byte[] digest = mac.doFinal((orderId + ":" + expires).getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
