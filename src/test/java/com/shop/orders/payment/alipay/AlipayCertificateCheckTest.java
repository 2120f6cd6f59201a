package com.shop.orders.payment.alipay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import com.shop.orders.sandbox.CertificateIssuer;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Each refusal of certificate mode's start-up check, one line naming the setting to fix. (ProductionStartupIT shows
 * them stopping the packaged service, with the production names from application.properties.)
 *
 * <p>The check and every certificate it reads count from one instant, the test's clock. The checks run twice: on a
 * fixed day, and a year ahead of the wall clock, where a certificate or a check that took the wall clock's time would
 * be refused or passed wrongly.
 */
class AlipayCertificateCheckTest {

    private static final String APP_DN = "CN=2021000000000001,O=Test Shop,C=CN";

    @Nested
    class OnAFixedDay extends Checks {
        OnAFixedDay() {
            super(Instant.parse("2026-12-02T00:00:00Z"));
        }
    }

    @Nested
    class AYearAheadOfTheWallClock extends Checks {
        AYearAheadOfTheWallClock() {
            super(Instant.now().plus(Duration.ofDays(365)));
        }
    }

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class Checks {

        private final Instant now;
        private KeyPair merchant;
        private CertificateIssuer root;
        private Map<String, String> valid;

        Checks(Instant now) {
            this.now = now;
        }

        @BeforeAll
        void certificates() {
            merchant = CertificateIssuer.newKeyPair();
            root = CertificateIssuer.newAuthority("CN=Test Alipay Root,O=Test Alipay,C=CN", now);
            valid = new HashMap<>();
            valid.put("ALIPAY_SIGN_MODE", "certificate");
            valid.put("ALIPAY_PRIVATE_KEY", Base64.getEncoder().encodeToString(merchant.getPrivate().getEncoded()));
            valid.put("ALIPAY_APP_CERT", CertificateIssuer.pem(root.issue(merchant.getPublic(), APP_DN,
                    now.minus(days(1)), now.plus(days(365)))));
            valid.put("ALIPAY_CERT", CertificateIssuer.pem(root.issue(CertificateIssuer.newKeyPair().getPublic(),
                    "CN=Alipay,O=Test Alipay,C=CN", now.minus(days(1)), now.plus(days(365)))));
            valid.put("ALIPAY_ROOT_CERT", CertificateIssuer.pem(root.certificate()));
        }

        @Test
        void validCertificatesAsContentOrAsFilesPass(@TempDir Path directory) throws Exception {
            assertEquals(List.of(), problems(valid));
            Map<String, String> files = new HashMap<>(valid);
            files.put("ALIPAY_ROOT_CERT_PATH", Files.writeString(directory.resolve("root.crt"), files.remove("ALIPAY_ROOT_CERT"))
                    .toString());
            assertEquals(List.of(), problems(files));
        }

        @Test
        void publicKeyModeDoesNotLookForCertificates() {
            assertEquals(List.of(), problems(Map.of("ALIPAY_SIGN_MODE", "public-key")));
        }

        @Test
        void eachMissingCertificateIsNamed() {
            List<String> problems = problems(Map.of("ALIPAY_SIGN_MODE", "certificate"));
            assertEquals(3, problems.size(), problems.toString());
            assertNamed(problems, "ALIPAY_APP_CERT (", "ALIPAY_CERT (", "ALIPAY_ROOT_CERT (");
        }

        @Test
        void contentAndPathTogetherAreRefused() {
            Map<String, String> both = new HashMap<>(valid);
            both.put("ALIPAY_CERT_PATH", "/somewhere/alipayCertPublicKey_RSA2.crt");
            assertNamed(problems(both), "ALIPAY_CERT (shop.alipay.alipay-cert) and ALIPAY_CERT_PATH");
        }

        @Test
        void unreadableUnparsableExpiredAndNotYetValidCertificatesAreNamed() {
            Map<String, String> broken = new HashMap<>(valid);
            broken.put("ALIPAY_APP_CERT", CertificateIssuer.pem(root.issue(merchant.getPublic(), APP_DN,
                    now.minus(days(400)), now.minus(days(35)))));
            broken.put("ALIPAY_CERT", CertificateIssuer.pem(root.issue(merchant.getPublic(), "CN=Alipay,O=Test Alipay,C=CN",
                    now.plus(days(2)), now.plus(days(365)))));
            assertNamed(problems(broken), "ALIPAY_APP_CERT (shop.alipay.app-cert) has expired",
                    "ALIPAY_CERT (shop.alipay.alipay-cert) is not valid before");

            broken.put("ALIPAY_APP_CERT", "-----BEGIN CERTIFICATE-----\nbm90LWEtY2VydA==\n-----END CERTIFICATE-----\n");
            broken.remove("ALIPAY_CERT");
            broken.put("ALIPAY_CERT_PATH", "/nonexistent/alipayCertPublicKey_RSA2.crt");
            assertNamed(problems(broken), "ALIPAY_APP_CERT (shop.alipay.app-cert) is not a PEM X.509 certificate",
                    "ALIPAY_CERT_PATH (shop.alipay.alipay-cert-path) cannot be read");
        }

        @Test
        void certificatesOfAnotherAuthorityAreNamed() {
            CertificateIssuer another = CertificateIssuer.newAuthority("CN=Another Root,O=Somebody,C=CN", now);
            Map<String, String> foreign = new HashMap<>(valid);
            foreign.put("ALIPAY_CERT", CertificateIssuer.pem(another.issue(merchant.getPublic(), "CN=Alipay,O=Test Alipay,C=CN",
                    now.minus(days(1)), now.plus(days(365)))));
            assertNamed(problems(foreign), "ALIPAY_CERT (shop.alipay.alipay-cert) is not issued under ALIPAY_ROOT_CERT");
            assertEquals(1, problems(foreign).size(), problems(foreign).toString());
        }

        @Test
        void anApplicationCertificateForAnotherKeyIsNamed() {
            Map<String, String> otherKey = new HashMap<>(valid);
            otherKey.put("ALIPAY_APP_CERT", CertificateIssuer.pem(root.issue(CertificateIssuer.newKeyPair().getPublic(), APP_DN,
                    now.minus(days(1)), now.plus(days(365)))));
            assertNamed(problems(otherKey),
                    "ALIPAY_APP_CERT (shop.alipay.app-cert) does not hold the public key of ALIPAY_PRIVATE_KEY");
        }

        private List<String> problems(Map<String, String> environment) {
            Map<String, String> env = new HashMap<>(environment);
            env.putIfAbsent("SHOP_ALIPAY_APP_ID", "2021000000000001");
            env.putIfAbsent("SHOP_ALIPAY_NOTIFY_URL", "https://shop.example/api/payments/alipay/notify");
            // The environment variable of each property (SHOP_ALIPAY_...), for the names production reads (ALIPAY_...).
            Map<String, String> mapped = new HashMap<>();
            env.forEach((name, value) -> mapped.put(name.startsWith("ALIPAY_CERT")
                    ? "SHOP_ALIPAY_" + name : name.startsWith("ALIPAY_") ? "SHOP_" + name : name, value));
            AlipayConfig config = new SmallRyeConfigBuilder()
                    .withConverter(Duration.class, 100, new DurationConverter())
                    .withMapping(AlipayConfig.class)
                    .withSources(new EnvConfigSource(mapped, 300))
                    .build().getConfigMapping(AlipayConfig.class);
            return new AlipayCertificateCheck(config, Clock.fixed(now, ZoneOffset.UTC)).problems();
        }
    }

    private static void assertNamed(List<String> problems, String... starts) {
        for (String start : starts) {
            assertTrue(problems.stream().anyMatch(problem -> problem.startsWith(start)), start + " not in " + problems);
        }
    }

    private static Duration days(int days) {
        return Duration.ofDays(days);
    }
}
