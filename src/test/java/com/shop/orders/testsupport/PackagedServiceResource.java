package com.shop.orders.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.eclipse.microprofile.config.ConfigProvider;

import com.shop.orders.payment.alipay.SignMode;
import com.shop.orders.sandbox.alipay.SandboxServer;
import com.shop.orders.sandbox.wechat.WechatSandboxServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * What the packaged service (the production jar, or the native executable) needs to run in an integration
 * test: its own database, the Alipay sandbox as a server of its own with fresh keys, served over HTTPS as Alipay's
 * gateway is (under a test CA that the service is given as its truststore, so that the TLS client path of the
 * Alipay SDK runs in the packaged service, on the JVM and native), the app in Alipay's certificate mode with the
 * certificates given as files (public-key mode runs packaged in the fault suite and the benchmark), a JWT key pair
 * of the test's (the service verifies with the public half, the test signs member tokens with the private
 * half), and an OTLP receiver that the service exports every trace to. Redis and RocketMQ come from the suite's
 * other resources. Both wallets are offered: the WeChat Pay sandbox runs as a server of its own too, over plain
 * HTTP (the packaged service is told connections need no TLS here, which lets its WeChat base URL and http notify
 * URL pass the production check).
 */
public class PackagedServiceResource implements QuarkusTestResourceLifecycleManager {

    /**
     * Its own database and ports, overridable (-Dpackaged.database, -Dpackaged.port and -Dpackaged.management-port,
     * which the build passes on as quarkus.http.test-port and quarkus.management.test-port, where the launcher and
     * {@link Management} read them) so that two checkouts on one machine can run the suite at once.
     */
    private static final String DATABASE = System.getProperty("packaged.database", "orders_it");
    private static final int PORT = ConfigProvider.getConfig().getOptionalValue("quarkus.http.test-port", Integer.class)
            .orElse(18089);
    private static final int MANAGEMENT_PORT = ConfigProvider.getConfig()
            .getOptionalValue("quarkus.management.test-port", Integer.class).orElse(9001);

    private static SandboxServer sandbox;
    private static WechatSandboxServer wechatSandbox;
    private static MemberTokens tokens;
    private static OtlpReceiver traces;

    @Override
    public Map<String, String> start() {
        try {
            recreateDatabase();
            TestTls tls = TestTls.generate(Path.of("target", "packaged-service-tls"));
            sandbox = SandboxServer.startHttps(0, tls.serverContext(), SignMode.CERTIFICATE);
            wechatSandbox = WechatSandboxServer.start(0, WechatSandboxServer.QUICK_REFUNDS);
            tokens = MemberTokens.generate(Files.createTempDirectory("packaged-service-jwt"));
            System.setProperty("test.jdbc.url", jdbcUrl());

            // The suite's broker checks every second: the CI timings, with a shorter pay window. Its check maximum
            // comes from that broker's own resource (RocketMqTestResource).
            Map<String, String> config = new HashMap<>(Timings.ci().withPayTimeout(Duration.ofSeconds(5))
                    .serviceSettings());
            config.remove("shop.expiry.broker-check-max");
            config.put("quarkus.management.port", Integer.toString(MANAGEMENT_PORT));
            config.put("quarkus.datasource.reactive.url", "mysql://127.0.0.1:3306/" + DATABASE);
            config.put("quarkus.datasource.jdbc.url", jdbcUrl());
            // The key itself rather than a file: the test build configures an in-memory key of its own under
            // this name, which the launched service would otherwise prefer to a location.
            config.put("mp.jwt.verify.publickey", tokens.publicKeyPem());
            config.put("mp.jwt.verify.issuer", tokens.issuer());
            config.put("mp.jwt.verify.audiences", tokens.audience());
            config.put("shop.alipay.gateway-url", sandbox.gatewayUrl());
            config.put("shop.alipay.app-id", SandboxServer.APP_ID);
            config.put("shop.alipay.notify-url", "http://127.0.0.1:" + PORT + "/api/payments/alipay/notify");
            config.put("shop.alipay.private-key", sandbox.keys().merchantPrivateKey());
            config.put("shop.alipay.sign-mode", "certificate");
            Path certificates = Files.createDirectories(Path.of("target", "packaged-service-alipay"));
            config.put("shop.alipay.app-cert-path", write(certificates.resolve("appCertPublicKey.crt"),
                    sandbox.keys().appCertificate()));
            config.put("shop.alipay.alipay-cert-path", write(certificates.resolve("alipayCertPublicKey_RSA2.crt"),
                    sandbox.keys().alipayCertificate()));
            config.put("shop.alipay.root-cert-path", write(certificates.resolve("alipayRootCert.crt"),
                    sandbox.keys().rootCertificate()));
            config.put("shop.payment.channels", "alipay,wechat");
            config.putAll(wechatSandbox.serviceSettings());
            config.put("shop.wechat.verification", "public-key");
            config.put("shop.wechat.notify-url", "http://127.0.0.1:" + PORT + "/api/payments/wechat/notify");
            config.put("shop.wechat.refund-notify-url", "http://127.0.0.1:" + PORT
                    + "/api/payments/wechat/refund-notify");
            config.put("shop.wechat.refund-interval", WechatSandboxServer.SERVICE_REFUND_INTERVAL);
            config.put("shop.payment.qr-url-secret", "integration-test-only-secret-0123456789abcdef");
            // The machine's database and the suite's broker and Redis speak plaintext (SecuredConnectionsIT: TLS).
            config.put("shop.connections.require-tls", "false");
            config.put("shop.rocketmq.poll-name-server-interval", "1s");
            // Days are reconciled on demand here (PackagedServiceIT): the daily job's catch-up of the days before
            // would call Alipay in the middle of tests that count what Alipay answered. The fault suite runs it.
            config.put("shop.reconciliation.scheduled", "false");
            config.putAll(tls.clientTrustProperties());
            // Every trace kept and exported to the test's own OTLP receiver within a fraction of a second.
            traces = OtlpReceiver.start();
            config.put("quarkus.otel.exporter.otlp.traces.endpoint", traces.endpoint());
            config.put("quarkus.otel.traces.sampler.arg", "1.0");
            config.put("quarkus.otel.bsp.schedule.delay", "200ms");
            return config;
        } catch (Exception e) {
            throw new IllegalStateException("Could not prepare the packaged service's test environment", e);
        }
    }

    @Override
    public void stop() {
        if (sandbox != null) {
            sandbox.close();
            sandbox = null;
        }
        if (wechatSandbox != null) {
            wechatSandbox.close();
            wechatSandbox = null;
        }
        if (traces != null) {
            traces.close();
            traces = null;
        }
    }

    private static String write(Path file, String pem) throws IOException {
        return Files.writeString(file, pem).toAbsolutePath().toString();
    }

    public static SandboxServer sandbox() {
        return sandbox;
    }

    /** The WeChat Pay sandbox the service's WeChat channel calls and whose notifies it receives. */
    public static WechatSandboxServer wechatSandbox() {
        return wechatSandbox;
    }

    /** What the service exported: every trace (sampler ratio 1). */
    public static OtlpReceiver traces() {
        return traces;
    }

    /** A member token as the shop's identity provider would issue it. */
    public static String memberToken(String memberId) {
        return tokens.token(memberId);
    }

    /** An admin's token, e.g. for the reconciliation endpoints. */
    public static String adminToken(String subject) {
        return tokens.adminToken(subject);
    }

    private static String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:3306/" + DATABASE;
    }

    private static void recreateDatabase() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/", "orders", "orders");
                Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + DATABASE);
            st.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        }
    }
}
