package com.shop.orders;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.shop.orders.sandbox.CertificateIssuer;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.MemberTokens;
import com.shop.orders.testsupport.OtlpReceiver;
import com.shop.orders.testsupport.PackagedArtifact;

/**
 * The packaged service in its production profile refuses to start with an unsafe setting, saying in one
 * line which environment variable to fix (in Alipay's certificate mode too: an expired certificate and one of
 * another authority; every refusal of that mode: AlipayCertificateCheckTest; connections in plaintext while TLS is
 * required, credentials and authorities half given or unusable: SecureConnectionsCheckTest), and starts without its
 * optional dependencies (Redis, the RocketMQ name server), ready to take orders, in certificate mode with the
 * certificates as content and as files, with tracing on while its collector hangs, and with requests sampled before
 * their span.
 */
class ProductionStartupIT {

    private static final PackagedArtifact SERVICE = PackagedArtifact.ofBuild();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String APP_DN = "CN=2021000000000001,O=Test Shop,C=CN";
    private static final String ALIPAY_DN = "CN=Alipay,O=Test Alipay,C=CN";

    private static Map<String, String> valid;
    /** Certificate mode's settings that go with {@link #valid}'s keys, as content. */
    private static Map<String, String> certificates;
    /** Certificates that must stop the start-up. */
    private static String expiredApp;
    private static String alipayOfAnotherAuthority;

    @BeforeAll
    static void validSettings() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair merchant = rsa.generateKeyPair();
        KeyPair alipay = rsa.generateKeyPair();
        KeyPair jwt = rsa.generateKeyPair();
        Path jwtKey = Files.createTempFile("unsafe-config-jwt-", ".pem");
        Files.writeString(jwtKey, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(jwt.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        valid = new HashMap<>();
        valid.put("DB_REACTIVE_URL", "mysql://127.0.0.1:3306/orders_it");
        valid.put("DB_JDBC_URL", "jdbc:mariadb://127.0.0.1:3306/orders_it");
        valid.put("ALIPAY_APP_ID", "2021000000000001");
        valid.put("ALIPAY_NOTIFY_URL", "https://shop.example/api/payments/alipay/notify");
        valid.put("ALIPAY_PRIVATE_KEY", Base64.getEncoder().encodeToString(merchant.getPrivate().getEncoded()));
        valid.put("ALIPAY_PUBLIC_KEY", Base64.getEncoder().encodeToString(alipay.getPublic().getEncoded()));
        valid.put("QR_URL_SECRET", "0123456789abcdef0123456789abcdef-integration");
        valid.put("JWT_ISSUER", "https://shop.example/auth");
        valid.put("JWT_AUDIENCE", "order-service");
        valid.put("JWT_PUBLIC_KEY_LOCATION", jwtKey.toString());
        // The machine's database and the tests' brokers speak plaintext; SecuredConnectionsIT runs with TLS required.
        valid.put("REQUIRE_TLS", "false");

        CertificateIssuer root = CertificateIssuer.newAuthority("CN=Test Alipay Root,O=Test Alipay,C=CN");
        certificates = Map.of(
                "ALIPAY_SIGN_MODE", "certificate",
                "ALIPAY_APP_CERT", CertificateIssuer.pem(root.issue(merchant.getPublic(), APP_DN)),
                "ALIPAY_CERT", CertificateIssuer.pem(root.issue(alipay.getPublic(), ALIPAY_DN)),
                "ALIPAY_ROOT_CERT", CertificateIssuer.pem(root.certificate()));
        Instant now = Instant.now();
        expiredApp = CertificateIssuer.pem(root.issue(merchant.getPublic(), APP_DN,
                now.minus(Duration.ofDays(400)), now.minus(Duration.ofDays(35))));
        X509Certificate foreign = CertificateIssuer.newAuthority("CN=Another Root,O=Somebody,C=CN")
                .issue(alipay.getPublic(), ALIPAY_DN);
        alipayOfAnotherAuthority = CertificateIssuer.pem(foreign);
    }

    /** Every check reports on its own line, so one start-up shows the refusal of several settings. */
    static Stream<Arguments> unsafe() {
        Map<String, String> missing = new HashMap<>();
        for (String variable : new String[] { "ALIPAY_PRIVATE_KEY", "ALIPAY_PUBLIC_KEY", "QR_URL_SECRET", "JWT_ISSUER",
                "JWT_AUDIENCE" }) {
            missing.put(variable, null);
        }
        Map<String, String> malformed = Map.of(
                "ALIPAY_PRIVATE_KEY", "bm90LWEta2V5",
                "ALIPAY_PUBLIC_KEY", "%%%",
                "ALIPAY_NOTIFY_URL", "shop.example/notify",
                "QR_URL_SECRET", "short-secret",
                "JWT_PUBLIC_KEY_LOCATION", "/nonexistent/publicKey.pem");
        Map<String, String> expiredAndForeign = new HashMap<>(certificates);
        expiredAndForeign.put("ALIPAY_APP_CERT", expiredApp);
        expiredAndForeign.put("ALIPAY_CERT", alipayOfAnotherAuthority);
        Map<String, String> connections = Map.of(
                "REQUIRE_TLS", "true",
                "ROCKETMQ_ACCESS_KEY", "order-service",
                "REDIS_USER", "order-service",
                "REDIS_CA", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
                "ROCKETMQ_CA_PATH", "/nonexistent/ca.pem");
        return Stream.of(
                Arguments.of("connections: plaintext while TLS is required, settings half given or unusable",
                        connections, Set.of("DB_SSL_MODE", "REDIS_URL", "ROCKETMQ_TLS", "ROCKETMQ_SECRET_KEY",
                                "REDIS_PASSWORD", "REDIS_CA", "ROCKETMQ_CA_PATH")),
                Arguments.of("missing", missing, missing.keySet()),
                Arguments.of("malformed", malformed, malformed.keySet()),
                Arguments.of("certificate mode, expired and of another authority", expiredAndForeign,
                        Set.of("ALIPAY_APP_CERT", "ALIPAY_CERT")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsafe")
    void refusesToStartNamingEachVariable(String kind, Map<String, String> changes, Set<String> named) throws Exception {
        Map<String, String> env = new HashMap<>(valid);
        changes.forEach((variable, value) -> {
            if (value == null) {
                env.remove(variable);
            } else {
                env.put(variable, value);
            }
        });
        Path log = Files.createTempFile("unsafe-config-", ".log");
        ProcessBuilder builder = new ProcessBuilder(SERVICE.command(Map.of()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(freePort()));
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(freePort()));
        Process service = builder.start();
        try {
            assertTrue(service.waitFor(60, TimeUnit.SECONDS), "still running with " + kind + " settings");
            assertNotEquals(0, service.exitValue());
            String output = Files.readString(log);
            for (String variable : named) {
                // The variable is the subject of the line ("ALIPAY_CERT (shop.alipay...) ..."), not just mentioned.
                assertTrue(output.lines().anyMatch(line -> line.contains(variable + " (") && line.contains("ERROR")),
                        "no ERROR line names " + variable + ":\n" + output);
            }
        } finally {
            service.destroyForcibly();
        }
    }

    /**
     * In certificate mode, with the certificates as Kubernetes gives them: an environment variable from a Secret, or
     * a file of a mounted one. (Public-key mode starts packaged in every other IT.)
     */
    @Test
    void startsReadyWithoutRedisOrANameServerInCertificateMode() throws Exception {
        Path directory = Files.createTempDirectory("alipay-certificates-");
        Map<String, String> env = new HashMap<>(valid);
        env.put("REDIS_URL", "redis://127.0.0.1:" + freePort());
        env.put("ROCKETMQ_NAMESRV", "127.0.0.1:" + freePort());
        env.remove("ALIPAY_PUBLIC_KEY");
        env.put("ALIPAY_SIGN_MODE", "certificate");
        env.put("ALIPAY_APP_CERT", certificates.get("ALIPAY_APP_CERT"));
        env.put("ALIPAY_CERT_PATH", Files.writeString(directory.resolve("alipayCertPublicKey_RSA2.crt"),
                certificates.get("ALIPAY_CERT")).toString());
        env.put("ALIPAY_ROOT_CERT_PATH", Files.writeString(directory.resolve("alipayRootCert.crt"),
                certificates.get("ALIPAY_ROOT_CERT")).toString());
        int management = freePort();
        Path log = Files.createTempFile("startup-without-dependencies-", ".log");
        ProcessBuilder builder = new ProcessBuilder(SERVICE.command(Map.of()))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(freePort()));
        builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(management));
        Process service = builder.start();
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> status(management, "/q/health/ready") == 200);
            assertTrue(service.isAlive(), Files.readString(log));
            String metrics = get(management, "/q/metrics");
            for (String certificate : new String[] { "app", "alipay", "root" }) {
                assertTrue(metrics.contains("alipay_certificate_days_left{certificate=\"" + certificate + "\"}"),
                        "no days left for " + certificate);
            }
        } finally {
            service.destroy();
            service.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Tracing on, every trace kept, and a collector that takes connections and never answers: orders are placed as
     * usual (the exporter works off the request path, bounded by its queue and its time-out), and the service stays
     * ready.
     */
    @Test
    void anUnansweringCollectorNeverHoldsUpAnOrder() throws Exception {
        try (Blackhole collector = Blackhole.open();
                TracedService service = TracedService.start("collector-down", "http://127.0.0.1:" + collector.port(),
                        "1.0")) {
            long sku = newSku(100_000);
            // Far more spans than the exporter's queue holds (each order makes several), while it hangs.
            List<Long> millis = Concurrently.run(8, IntStream.range(0, 500).<Callable<Long>> mapToObj(i -> () -> {
                long start = System.nanoTime();
                HttpResponse<String> placed = service.place("collector-down-" + i, sku, null);
                assertEquals(201, placed.statusCode(), placed.body());
                return (System.nanoTime() - start) / 1_000_000;
            }).toList());
            List<Long> sorted = millis.stream().sorted().toList();
            long p99 = sorted.get(sorted.size() * 99 / 100);
            assertTrue(p99 < 2_000, "placement p99 " + p99 + " ms while the collector hangs");
            assertTrue(collector.connections() > 0, "the exporter never tried the collector");
            assertEquals(200, status(service.management(), "/q/health/ready"));
            assertTrue(service.process().isAlive(), Files.readString(service.log()));
        } finally {
            removeOrdersOf("collector-down-");
        }
    }

    /**
     * At a ratio of 0 a request that starts a trace is served without a span (the decision is taken before Quarkus's
     * instrumentation builds one), and one that continues a caller's sampled trace is traced in full, its SQL with it.
     */
    @Test
    void aRequestNotDrawnIsServedUntracedAndOneInASampledTraceIsTracedInFull() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start();
                TracedService service = TracedService.start("unsampled", receiver.endpoint(), "0.0")) {
            long sku = newSku(1_000);
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> placed = service.place("unsampled-" + i, sku, null);
                assertEquals(201, placed.statusCode(), placed.body());
            }
            String traceId = java.util.UUID.randomUUID().toString().replace("-", "");
            HttpResponse<String> traced = service.place("unsampled-traced", sku, "00-" + traceId + "-00f067aa0ba902b7-01");
            assertEquals(201, traced.statusCode(), traced.body());

            await().atMost(Duration.ofSeconds(30)).until(() -> receiver.trace(traceId).stream()
                    .anyMatch(span -> span.kind().equals("SPAN_KIND_SERVER")));
            List<OtlpReceiver.ReceivedSpan> trace = receiver.trace(traceId);
            assertTrue(trace.stream().anyMatch(span -> span.kind().equals("SPAN_KIND_CLIENT")
                    && span.attributes().keySet().stream().anyMatch(key -> key.startsWith("db."))),
                    "SQL in the sampled trace: " + trace);
            List<OtlpReceiver.ReceivedSpan> otherRequests = receiver.spans().stream()
                    .filter(span -> span.kind().equals("SPAN_KIND_SERVER") && !span.traceId().equals(traceId)).toList();
            assertEquals(List.of(), otherRequests, "requests not drawn at a ratio of 0");
        } finally {
            removeOrdersOf("unsampled-");
        }
    }

    /**
     * The packaged service with tracing on, exporting to {@code endpoint}, without Redis and a name server (not
     * needed to place orders), and its own members' tokens.
     */
    private record TracedService(Process process, int http, int management, Path log, MemberTokens tokens)
            implements AutoCloseable {

        static TracedService start(String name, String endpoint, String ratio) throws Exception {
            MemberTokens tokens = MemberTokens.generate(Files.createTempDirectory(name + "-jwt"));
            Map<String, String> env = new HashMap<>(valid);
            env.put("REDIS_URL", "redis://127.0.0.1:" + freePort());
            env.put("ROCKETMQ_NAMESRV", "127.0.0.1:" + freePort());
            env.put("JWT_ISSUER", tokens.issuer());
            env.put("JWT_AUDIENCE", tokens.audience());
            env.put("JWT_PUBLIC_KEY_LOCATION", tokens.publicKeyFile().toString());
            env.put("OTEL_TRACES_SAMPLER_ARG", ratio);
            env.put("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
            int http = freePort();
            int management = freePort();
            Path log = Files.createTempFile(name + "-", ".log");
            ProcessBuilder builder = new ProcessBuilder(SERVICE.command(Map.of()))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().putAll(env);
            builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(http));
            builder.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(management));
            TracedService service = new TracedService(builder.start(), http, management, log, tokens);
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> status(management, "/q/health/ready") == 200);
                return service;
            } catch (RuntimeException | Error e) {
                service.close();
                throw e;
            }
        }

        /** Places an order of one unit, in the caller's trace when {@code traceparent} is given. */
        HttpResponse<String> place(String member, long sku, String traceparent) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/api/orders"))
                    .header("Authorization", "Bearer " + tokens.token(member))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"items\":[{\"skuId\":" + sku + ",\"quantity\":1}]}"))
                    .timeout(Duration.ofSeconds(10));
            if (traceparent != null) {
                request.header("traceparent", traceparent);
            }
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * The test's orders out of the shared database: another packaged service of the suite (PackagedServiceIT's, kept
     * running by Quarkus until the end) would otherwise sweep and expire hundreds of them afterwards.
     */
    private static void removeOrdersOf(String memberPrefix) throws Exception {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/orders_it",
                "orders", "orders"); java.sql.Statement st = c.createStatement()) {
            String orders = "SELECT id FROM orders WHERE member_id LIKE '" + memberPrefix + "%'";
            st.executeUpdate("DELETE FROM order_event WHERE order_no IN (SELECT order_no FROM orders WHERE member_id LIKE '"
                    + memberPrefix + "%')");
            st.executeUpdate("DELETE FROM order_item WHERE order_id IN (" + orders + ")");
            st.executeUpdate("DELETE FROM purchase_allowance WHERE member_id LIKE '" + memberPrefix + "%'");
            st.executeUpdate("DELETE FROM orders WHERE member_id LIKE '" + memberPrefix + "%'");
        }
    }

    /** A collector that takes connections and reads what it is sent, and never answers. */
    private static final class Blackhole implements AutoCloseable {
        private final ServerSocket socket;
        private final AtomicInteger connections = new AtomicInteger();
        private final List<java.net.Socket> held = new CopyOnWriteArrayList<>();

        private Blackhole(ServerSocket socket) {
            this.socket = socket;
            Thread acceptor = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        java.net.Socket client = socket.accept();
                        connections.incrementAndGet();
                        held.add(client);
                        Thread reader = new Thread(() -> {
                            try {
                                client.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
                            } catch (IOException e) {
                                // closed
                            }
                        });
                        reader.setDaemon(true);
                        reader.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "blackhole-collector");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        static Blackhole open() throws IOException {
            return new Blackhole(new ServerSocket(0));
        }

        int port() {
            return socket.getLocalPort();
        }

        int connections() {
            return connections.get();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (java.net.Socket client : held) {
                client.close();
            }
        }
    }

    /** A SKU in the database the packaged service uses here. */
    private static long newSku(int stock) throws Exception {
        long id = System.currentTimeMillis() % 1_000_000_000L + 5_000_000_000L;
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:mariadb://127.0.0.1:3306/orders_it",
                "orders", "orders"); java.sql.PreparedStatement st = c.prepareStatement(
                        "INSERT INTO sku (id, code, name, price, stock, lock_stock) VALUES (?, ?, ?, 1.00, ?, 0)")) {
            st.setLong(1, id);
            st.setString(2, "C-" + id);
            st.setString(3, "Collector test " + id);
            st.setInt(4, stock);
            st.executeUpdate();
        }
        return id;
    }

    private static int status(int port, String path) throws Exception {
        return HTTP.send(request(port, path), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String get(int port, String path) throws Exception {
        return HTTP.send(request(port, path), HttpResponse.BodyHandlers.ofString()).body();
    }

    private static HttpRequest request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(2)).build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
