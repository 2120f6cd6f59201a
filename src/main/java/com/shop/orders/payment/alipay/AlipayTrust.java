package com.shop.orders.payment.alipay;

import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * The keys Alipay's answers and notifies are verified with. Public-key mode: the configured key. Certificate
 * mode: the key of the configured Alipay certificate, then those of newer certificates Alipay answered under,
 * each downloaded and checked against the configured root before it is trusted ({@link #learn}). Alipay
 * re-issues its certificate (on expiry, or under another CA; normally for the same key) and tells merchants only
 * by the {@code alipay_cert_sn} of its answers. Exports the days left on each configured certificate, how many
 * certificates this instance learnt beyond the configured one, and how many it refused.
 */
@Startup
@ApplicationScoped
public class AlipayTrust {

    private static final Logger LOG = Logger.getLogger(AlipayTrust.class);

    private record Trusted(String sn, X509Certificate certificate, String key) {
    }

    private final SignMode mode;
    private final String publicKey;
    private final String rootPem;
    private final List<Trusted> alipayCertificates = new CopyOnWriteArrayList<>();
    private final Counter untrusted;
    private final Clock clock;

    public AlipayTrust(AlipayConfig config, AlipayKeys keys, MeterRegistry registry, Clock clock) {
        this.mode = config.signMode();
        this.clock = clock;
        this.untrusted = Counter.builder("alipay.certificates.untrusted")
                .description("Alipay certificates answered under that did not check out against the root: refused")
                .register(registry);
        if (mode == SignMode.PUBLIC_KEY) {
            this.publicKey = keys.alipayPublicKey();
            this.rootPem = null;
            return;
        }
        this.publicKey = null;
        this.rootPem = keys.rootCertificate();
        X509Certificate app = leaf(keys.appCertificate(), "the application certificate");
        X509Certificate alipay = leaf(keys.alipayCertificate(), "Alipay's certificate");
        X509Certificate root = readAll(rootPem, "the root certificate").stream()
                .min(Comparator.comparing(X509Certificate::getNotAfter)).orElseThrow();
        alipayCertificates.add(trusted(alipay));
        daysLeft(registry, clock, "app", () -> app);
        daysLeft(registry, clock, "alipay", () -> alipay);
        daysLeft(registry, clock, "root", () -> root);
        Gauge.builder("alipay.certificates.learnt", alipayCertificates, list -> list.size() - 1)
                .description("Alipay certificates trusted beyond the configured ALIPAY_CERT: Alipay re-issued it")
                .register(registry);
    }

    public SignMode mode() {
        return mode;
    }

    /** Base64 X.509 keys that may have signed a notify, the configured one first. */
    List<String> verificationKeys() {
        return mode == SignMode.PUBLIC_KEY ? List.of(publicKey) : alipayCertificates.stream().map(Trusted::key).toList();
    }

    boolean knows(String alipayCertSn) {
        return alipayCertificates.stream().anyMatch(trusted -> trusted.sn().equals(alipayCertSn));
    }

    /**
     * Trusts the certificate that Alipay said it answers under, as downloaded: only when it is that SN, in date,
     * and issued under the configured root. False (counted, logged) otherwise.
     */
    synchronized boolean learn(String alipayCertSn, String pem) {
        if (knows(alipayCertSn)) {
            return true;
        }
        X509Certificate certificate;
        try {
            certificate = readAll(pem, "the downloaded certificate").get(0);
        } catch (IllegalStateException unreadable) {
            return refuse(alipayCertSn, "it is unreadable");
        }
        if (!Certificates.sn(certificate).equals(alipayCertSn)) {
            return refuse(alipayCertSn, "it is certificate " + Certificates.sn(certificate));
        }
        if (!Certificates.issuedUnder(pem, rootPem, clock.instant())) {
            return refuse(alipayCertSn, "it is out of date or not issued under ALIPAY_ROOT_CERT");
        }
        alipayCertificates.add(trusted(certificate));
        LOG.warnf("Alipay answers under its certificate %s (%s, valid until %s), not under ALIPAY_CERT (%s): downloaded "
                + "and checked against ALIPAY_ROOT_CERT, trusted from now on by this instance. Put the new certificate "
                + "into ALIPAY_CERT.", alipayCertSn, certificate.getSubjectX500Principal().getName(),
                certificate.getNotAfter().toInstant(), alipayCertificates.get(0).sn());
        return true;
    }

    /** An answer under a certificate that does not check out against the root: never trusted, counted. */
    boolean refuse(String certificate, String reason) {
        untrusted.increment();
        LOG.errorf("Alipay's certificate %s is not trusted (%s): answers under it are refused. Check "
                + "ALIPAY_ROOT_CERT and the certificates in Alipay's console.", certificate, reason);
        return false;
    }

    private static Trusted trusted(X509Certificate certificate) {
        return new Trusted(Certificates.sn(certificate), certificate,
                Base64.getEncoder().encodeToString(certificate.getPublicKey().getEncoded()));
    }

    private static void daysLeft(MeterRegistry registry, Clock clock, String which, Supplier<X509Certificate> certificate) {
        Gauge.builder("alipay.certificate.days.left", () -> Certificates.daysLeft(certificate.get(), clock.instant()))
                .description("Whole days until the configured certificate expires (the root: its first to expire)")
                .tag("certificate", which)
                .register(registry);
    }

    private static X509Certificate leaf(String pem, String what) {
        return readAll(pem, what).get(0);
    }

    private static List<X509Certificate> readAll(String pem, String what) {
        try {
            List<X509Certificate> certificates = Certificates.read(pem);
            if (certificates.isEmpty()) {
                throw new IllegalStateException(what + " holds no certificate");
            }
            return certificates;
        } catch (CertificateException e) {
            throw new IllegalStateException(what + " is not a PEM X.509 certificate", e);
        }
    }
}
