package com.shop.orders.payment.alipay;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AntCertificationUtil;

/**
 * Reading and judging Alipay's certificates. The serial numbers are the SDK's own ({@link AntCertificationUtil}), so
 * the service agrees with the SDK on which certificate is which; the chain check follows the SDK's on the service's
 * clock.
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

    /**
     * Whether every certificate of {@code pem} (a chain, in any order) is in date at {@code now} and issued, through
     * the others, under one of the roots, which must be in date too. As the SDK's own chain check
     * ({@code AntCertificationUtil.isTrusted}: issuers found by name, signatures verified with the issuer's key), but
     * on the service's clock rather than the wall clock's, so the start-up check and a downloaded certificate are
     * judged at the instant the rest of the check counts from.
     */
    static boolean issuedUnder(String pem, String rootPem, Instant now) {
        try {
            List<X509Certificate> chain = read(pem);
            List<X509Certificate> roots = read(rootPem);
            List<X509Certificate> known = new ArrayList<>(chain);
            known.addAll(roots);
            return !chain.isEmpty() && chain.stream().allMatch(certificate -> trusted(certificate, known, roots, now,
                    known.size()));
        } catch (CertificateException | RuntimeException unreadable) {
            return false;
        }
    }

    /** In date and a root, or signed by an issuer among {@code known} that is trusted; {@code depth} ends a loop. */
    private static boolean trusted(X509Certificate certificate, List<X509Certificate> known, List<X509Certificate> roots,
            Instant now, int depth) {
        if (depth < 0 || !inDate(certificate, now)) {
            return false;
        }
        if (roots.contains(certificate)) {
            return true;
        }
        return known.stream()
                .filter(issuer -> !issuer.equals(certificate)
                        && issuer.getSubjectX500Principal().equals(certificate.getIssuerX500Principal()))
                .anyMatch(issuer -> signedBy(certificate, issuer) && trusted(issuer, known, roots, now, depth - 1));
    }

    private static boolean inDate(X509Certificate certificate, Instant now) {
        return !now.isBefore(certificate.getNotBefore().toInstant()) && !now.isAfter(certificate.getNotAfter().toInstant());
    }

    private static boolean signedBy(X509Certificate certificate, X509Certificate issuer) {
        try {
            certificate.verify(issuer.getPublicKey());
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** Whole days until the certificate expires, negative once it has. */
    static long daysLeft(X509Certificate certificate, Instant now) {
        return Math.floorDiv(Duration.between(now, certificate.getNotAfter().toInstant()).toSeconds(), 86_400L);
    }
}
