package com.shop.orders.sandbox.alipay;

import com.shop.orders.sandbox.CertificateIssuer;
import com.shop.orders.sandbox.KeyPairs;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Alipay's side of certificate mode: its root CA, the application's certificate (issued for the merchant's key,
 * as Alipay issues it when the merchant uploads its CSR) and Alipay's own certificate, made at start. For the
 * rotation knobs, made when first wanted: a re-issue of Alipay's certificate (same key, new serial, as Alipay
 * re-issues it), a certificate of a CA that no merchant trusts, and a renewed application certificate that the
 * merchant has not deployed. SNs follow Alipay's rule: MD5 of the issuer's name (RFC 2253) and the serial in
 * decimal, written independently of the SDK under test.
 */
final class SandboxCertificates {

    static final String DOWNLOAD_METHOD = "alipay.open.app.alipaycert.download";

    private final CertificateIssuer root = CertificateIssuer.newAuthority(
            "CN=Sandbox Alipay Root CA,OU=Sandbox Certification Authority,O=Sandbox Alipay,C=CN");
    private final PublicKey merchantKey;
    private final KeyPair alipayKeys;
    private final X509Certificate app;
    private final X509Certificate alipay;
    private X509Certificate renewedApp;
    private X509Certificate reissuedAlipay;
    private KeyPair foreignKeys;
    private X509Certificate foreignAlipay;

    SandboxCertificates(PublicKey merchantKey, KeyPair alipayKeys) {
        this.merchantKey = merchantKey;
        this.alipayKeys = alipayKeys;
        this.app = root.issue(merchantKey, "CN=2021000000000001,OU=Sandbox Merchant,O=Sandbox Shop,C=CN");
        this.alipay = root.issue(alipayKeys.getPublic(), "CN=Sandbox Alipay,OU=Alipay Open Platform,O=Sandbox Alipay,C=CN");
    }

    String appPem() {
        return CertificateIssuer.pem(app);
    }

    String alipayPem() {
        return CertificateIssuer.pem(alipay);
    }

    String rootPem() {
        return CertificateIssuer.pem(root.certificate());
    }

    String rootSn() {
        return sn(root.certificate());
    }

    /** The application certificate SN that requests must carry: the deployed one, or one renewed at "Alipay". */
    String expectedAppSn(boolean renewed) {
        return sn(renewed ? renewedApp() : app);
    }

    /** The certificate Alipay answers under. */
    X509Certificate answeringCertificate(SandboxFaults.AlipayCertificate which) {
        return switch (which) {
            case ISSUED -> alipay;
            case REISSUED -> reissuedAlipay();
            case FOREIGN -> foreign().getValue();
        };
    }

    PrivateKey signingKey(SandboxFaults.AlipayCertificate which) {
        return which == SandboxFaults.AlipayCertificate.FOREIGN ? foreign().getKey().getPrivate() : alipayKeys.getPrivate();
    }

    /** The answer to {@code alipay.open.app.alipaycert.download}: Base64 of the certificate's PEM. */
    Optional<String> download(String alipayCertSn) {
        for (X509Certificate known : new X509Certificate[] { alipay, reissuedAlipay, foreignAlipay }) {
            if (known != null && sn(known).equals(alipayCertSn)) {
                return Optional.of(Base64.getEncoder()
                        .encodeToString(CertificateIssuer.pem(known).getBytes(StandardCharsets.US_ASCII)));
            }
        }
        return Optional.empty();
    }

    static String sn(X509Certificate certificate) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            byte[] digest = md5.digest((certificate.getIssuerX500Principal().getName() + certificate.getSerialNumber())
                    .getBytes(StandardCharsets.UTF_8));
            return String.format("%032x", new BigInteger(1, digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is in every JDK", e);
        }
    }

    private synchronized X509Certificate renewedApp() {
        if (renewedApp == null) {
            renewedApp = root.issue(merchantKey, "CN=2021000000000001,OU=Sandbox Merchant,O=Sandbox Shop,C=CN");
        }
        return renewedApp;
    }

    private synchronized X509Certificate reissuedAlipay() {
        if (reissuedAlipay == null) {
            reissuedAlipay = root.issue(alipayKeys.getPublic(),
                    "CN=Sandbox Alipay,OU=Alipay Open Platform,O=Sandbox Alipay,C=CN");
        }
        return reissuedAlipay;
    }

    private synchronized Map.Entry<KeyPair, X509Certificate> foreign() {
        if (foreignAlipay == null) {
            foreignKeys = KeyPairs.newRsaPair();
            foreignAlipay = CertificateIssuer.newAuthority("CN=Unknown CA,O=Nobody,C=CN")
                    .issue(foreignKeys.getPublic(), "CN=Sandbox Alipay,OU=Alipay Open Platform,O=Sandbox Alipay,C=CN");
        }
        return Map.entry(foreignKeys, foreignAlipay);
    }
}
