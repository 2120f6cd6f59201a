package com.shop.orders.payment.alipay;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.startup.StartupCheck;

/**
 * Certificate mode must have three usable certificates: each one readable, in date, the application's and
 * Alipay's issued under the given root, and the application's holding the public half of the private key. A
 * service without them would start, look ready, and fail every payment.
 */
@ApplicationScoped
public class AlipayCertificateCheck implements StartupCheck {

    private final AlipayConfig config;
    private final Clock clock;

    public AlipayCertificateCheck(AlipayConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    @Override
    public List<String> problems() {
        if (config.signMode() != SignMode.CERTIFICATE) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        Instant now = clock.instant();
        CertificateSetting rootSetting = CertificateSetting.root(config);
        Optional<String> root = readInDate(rootSetting, now, problems);
        if (root.isPresent() && Certificates.rootSn(root.get()) == null) {
            problems.add(rootSetting.source() + " holds no RSA certificate");
            root = Optional.empty();
        }
        Optional<String> app = issuedUnderRoot(CertificateSetting.app(config), root, now, problems);
        issuedUnderRoot(CertificateSetting.alipay(config), root, now, problems);
        if (app.isPresent()) {
            keyMismatch(app.get()).ifPresent(problems::add);
        }
        return problems;
    }

    /** The certificate's PEM when it is readable, in date and, if the root could be read, issued under it. */
    private static Optional<String> issuedUnderRoot(CertificateSetting setting, Optional<String> root, Instant now,
            List<String> problems) {
        Optional<String> pem = readInDate(setting, now, problems);
        if (pem.isPresent() && root.isPresent() && !Certificates.issuedUnder(pem.get(), root.get(), now)) {
            problems.add(setting.source() + " is not issued under ALIPAY_ROOT_CERT");
            return Optional.empty();
        }
        return pem;
    }

    private static Optional<String> readInDate(CertificateSetting setting, Instant now, List<String> problems) {
        String pem;
        List<X509Certificate> certificates;
        try {
            pem = setting.read();
            certificates = Certificates.read(pem);
        } catch (IllegalStateException unset) {
            problems.add(unset.getMessage());
            return Optional.empty();
        } catch (CertificateException e) {
            problems.add(setting.source() + " is not a PEM X.509 certificate");
            return Optional.empty();
        }
        if (certificates.isEmpty()) {
            problems.add(setting.source() + " is not a PEM X.509 certificate");
            return Optional.empty();
        }
        for (X509Certificate certificate : certificates) {
            if (certificate.getNotAfter().toInstant().isBefore(now)) {
                problems.add(setting.source() + " has expired on " + certificate.getNotAfter().toInstant() + " ("
                        + certificate.getSubjectX500Principal().getName() + ")");
                return Optional.empty();
            }
            if (certificate.getNotBefore().toInstant().isAfter(now)) {
                problems.add(setting.source() + " is not valid before " + certificate.getNotBefore().toInstant());
                return Optional.empty();
            }
        }
        return Optional.of(pem);
    }

    /** Signs a probe with the private key and verifies it with the application certificate's key. */
    private Optional<String> keyMismatch(String appPem) {
        PrivateKey privateKey;
        try {
            byte[] encoded = Base64.getMimeDecoder().decode(config.privateKey().orElse(""));
            privateKey = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(encoded));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return Optional.empty(); // AlipayConfigCheck reports the key itself
        }
        try {
            PublicKey certified = Certificates.read(appPem).get(0).getPublicKey();
            byte[] probe = "alipay-certificate-check".getBytes(StandardCharsets.US_ASCII);
            Signature signer = Signature.getInstance("SHA256withRSA");
            signer.initSign(privateKey);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance("SHA256withRSA");
            verifier.initVerify(certified);
            verifier.update(probe);
            if (verifier.verify(signature)) {
                return Optional.empty();
            }
        } catch (GeneralSecurityException e) {
            // a certificate key that cannot verify RSA signatures does not match either
        }
        return Optional.of(CertificateSetting.app(config).source()
                + " does not hold the public key of ALIPAY_PRIVATE_KEY (shop.alipay.private-key)");
    }
}
