package com.shop.orders.payment.alipay;

import java.net.URI;
import java.security.KeyFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.payment.PaymentConfig;
import com.shop.orders.startup.StartupCheck;

/** Production must have usable Alipay keys, absolute URLs and a QR link secret shared by every instance. */
@ApplicationScoped
public class AlipayConfigCheck implements StartupCheck {

    /** HMAC-SHA256 wants a key of at least its output size. */
    static final int MIN_SECRET_LENGTH = 32;

    private final AlipayConfig alipay;
    private final PaymentConfig payment;

    public AlipayConfigCheck(AlipayConfig alipay, PaymentConfig payment) {
        this.alipay = alipay;
        this.payment = payment;
    }

    @Override
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (payment.channels().contains(AlipayChannel.NAME)) {
            alipayProblems(problems);
        }
        String secret = payment.qrUrlSecret().orElse("");
        if (secret.isBlank()) {
            problems.add("QR_URL_SECRET (shop.payment.qr-url-secret) is not set: QR image links would work on one instance only");
        } else if (secret.length() < MIN_SECRET_LENGTH) {
            problems.add("QR_URL_SECRET (shop.payment.qr-url-secret) is shorter than " + MIN_SECRET_LENGTH + " characters");
        }
        return problems;
    }

    /** Checked only when the shop offers Alipay (shop.payment.channels). */
    private void alipayProblems(List<String> problems) {
        key("ALIPAY_PRIVATE_KEY (shop.alipay.private-key)", alipay.privateKey(), true).ifPresent(problems::add);
        if (alipay.signMode() == SignMode.PUBLIC_KEY) {
            // certificate mode verifies with Alipay's certificate instead: AlipayCertificateCheck
            key("ALIPAY_PUBLIC_KEY (shop.alipay.alipay-public-key)", alipay.alipayPublicKey(), false).ifPresent(problems::add);
        }
        absoluteUrl("ALIPAY_GATEWAY_URL (shop.alipay.gateway-url)", alipay.gatewayUrl()).ifPresent(problems::add);
        absoluteUrl("ALIPAY_NOTIFY_URL (shop.alipay.notify-url)", alipay.notifyUrl()).ifPresent(problems::add);
    }

    private static Optional<String> key(String setting, Optional<String> value, boolean privateKey) {
        if (value.isEmpty() || value.get().isBlank()) {
            return Optional.of(setting + " is not set");
        }
        try {
            byte[] encoded = Base64.getMimeDecoder().decode(value.get());
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            if (privateKey) {
                rsa.generatePrivate(new PKCS8EncodedKeySpec(encoded));
            } else {
                rsa.generatePublic(new X509EncodedKeySpec(encoded));
            }
            return Optional.empty();
        } catch (Exception e) {
            return Optional.of(setting + " is not an RSA " + (privateKey ? "PKCS#8 private" : "X.509 public")
                    + " key in bare Base64");
        }
    }

    private static Optional<String> absoluteUrl(String setting, String value) {
        try {
            URI uri = URI.create(value);
            if (("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) && uri.getHost() != null) {
                return Optional.empty();
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        return Optional.of(setting + " is not an absolute http(s) URL: " + value);
    }
}
