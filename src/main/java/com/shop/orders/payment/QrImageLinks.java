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

    /** The link to the image of the order's trade on the channel. */
    public String linkFor(long orderId, String channel) {
        long expires = clock.instant().plus(config.qrUrlTtl()).getEpochSecond();
        return "/api/payments/qr-images/" + orderId + "?channel=" + channel + "&expires=" + expires + "&sig="
                + sign(signed(orderId, channel, expires));
    }

    /** A link is valid until it expires, and never expires later than a link made now would. */
    public boolean isValid(long orderId, String channel, long expires, String signature) {
        long now = clock.instant().getEpochSecond();
        if (signature == null || channel == null || expires < now || expires > now + config.qrUrlTtl().toSeconds()) {
            return false;
        }
        return MessageDigest.isEqual(sign(signed(orderId, channel, expires)).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }

    /** Alipay's links sign what they signed before there were channels, so that both versions take each other's. */
    private static String signed(long orderId, String channel, long expires) {
        return PaymentChannels.ORIGINAL.equals(channel) ? orderId + ":" + expires
                : orderId + ":" + channel + ":" + expires;
    }

    private String sign(String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            byte[] digest = mac.doFinal(message.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
