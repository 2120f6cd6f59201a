package com.shop.orders.payment;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AntCertificationUtil;

/**
 * Reading and judging Alipay's certificates. The serial numbers and the chain check are the SDK's own
 * ({@link AntCertificationUtil}), so the service agrees with the SDK on which certificate is which and which
 * one is trusted.
 */
final class Certificates {

    private Certificates() {
    }

    /** Every certificate of a PEM text, in order (a chain or a set of roots); empty when it holds none. */
    static List<X509Certificate> read(String pem) throws CertificateException {
        CertificateFactory factory = CertificateFactory.getInstance("X.509");
        return factory.generateCertificates(new ByteArrayInputStream(pem.trim().getBytes(StandardCharsets.US_ASCII)))
                .stream().map(X509Certificate.class::cast).toList();
    }

    /** Alipay's SN of a certificate: MD5 of its issuer's name and its serial number. */
    static String sn(X509Certificate certificate) {
        try {
            return AntCertificationUtil.getCertSN(certificate);
        } catch (AlipayApiException e) {
            throw new IllegalStateException("MD5 is in every JDK", e);
        }
    }

    /** The SNs of the root text's RSA certificates joined by '_', as sent in {@code alipay_root_cert_sn}; null if none. */
    static String rootSn(String rootPem) {
        return AntCertificationUtil.getRootCertSN(rootPem);
    }

    /** Whether the chain in {@code pem} (leaf first) is in date and issued under one of the roots. */
    static boolean issuedUnder(String pem, String rootPem) {
        try {
            return AntCertificationUtil.isTrusted(pem, rootPem);
        } catch (RuntimeException unreadable) {
            return false;
        }
    }

    /** Whole days until the certificate expires, negative once it has. */
    static long daysLeft(X509Certificate certificate, Instant now) {
        return Math.floorDiv(Duration.between(now, certificate.getNotAfter().toInstant()).toSeconds(), 86_400L);
    }
}
