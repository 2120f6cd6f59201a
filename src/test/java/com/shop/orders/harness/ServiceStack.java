package com.shop.orders.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.sandbox.alipay.SandboxServer;
import com.shop.orders.sandbox.wechat.WechatSandboxServer;
import com.shop.orders.testsupport.LocalRedis;
import com.shop.orders.testsupport.LocalRocketMq;
import com.shop.orders.testsupport.MemberTokens;
import com.shop.orders.testsupport.PackagedArtifact;
import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.TestTls;
import com.shop.orders.testsupport.Timings;

/**
 * Everything a run with several replicas needs, owned by the stack: a MariaDB, a Redis and a RocketMQ name server
 * and broker of its own (free ports), the Alipay and WeChat Pay sandboxes in this JVM, a JWT issuer, N packaged
 * services as separate processes, and a round-robin front over them ({@link #apiUrl()}), which is also the notify URL
 * the services give both wallets. State and logs stay under the given folder for diagnosis.
 *
 * <p>{@link #startSecured Secured}, it runs as production does: every server serves TLS only, under an authority of
 * the stack's own; each is reached as a named user with only the rights the service needs (the database's service
 * user has DML on its tables, the migrations run before the services as the schema's owner, in a run of the same
 * artifact of their own; Redis's user has its keys, channel and commands; the broker's ACL 2.0 user its topics and
 * group); and the services refuse to start with anything less ({@code REQUIRE_TLS}).
 */
public final class ServiceStack implements AutoCloseable {

    public static final String DATABASE = "orders";
    public static final String EXPIRY_TOPIC = "order-expiry";
    public static final String PAID_TOPIC = "order-paid";
    public static final String REFUNDED_TOPIC = "order-refunded";
    public static final String QR_URL_SECRET = "replica-harness-only-secret-0123456789abcdef";
    /** The sandbox's seller id, checked on every notify. */
    public static final String SELLER_ID = "2088102100000099";
    /** The secured stack's users and their test-only passwords. */
    public static final String DB_OWNER = "orders_owner";
    public static final String DB_OWNER_PASSWORD = "owner-test-only-password";
    public static final String DB_SERVICE_USER = "order_service";
    public static final String DB_SERVICE_PASSWORD = "service-test-only-password";
    public static final String REDIS_USER = "order-service";
    public static final String REDIS_PASSWORD = "redis-test-only-password";
    public static final String BROKER_ADMIN = "rocketmq-admin";
    public static final String BROKER_ADMIN_PASSWORD = "admin-test-only-password";
    public static final String BROKER_USER = "order-service";
    public static final String BROKER_PASSWORD = "broker-test-only-password";
    /**
     * What the service's broker user may do: publish its three topics, consume expiry messages in its group, and
     * answer check-backs, which RocketMQ 5.3 authorizes as a publish to its half-message topic
     * (deployment/kubernetes/README.md, "RocketMQ users").
     */
    public static final List<String> BROKER_GRANTS = List.of("Topic:" + EXPIRY_TOPIC + "=Pub,Sub",
            "Topic:" + PAID_TOPIC + "=Pub", "Topic:" + REFUNDED_TOPIC + "=Pub", "Group:order-expiry-consumer=Sub",
            "Topic:RMQ_SYS_TRANS_HALF_TOPIC=Pub");

    private static final AtomicLong NEXT_SKU = new AtomicLong(1_000_000);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient ADMIN_HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();

    private final Path dir;
    private final Timings timings;
    /** The authority of the secured stack's servers, null when the stack is plain. */
    private final TestTls tls;
    /** Whether the secured stack's servers serve plaintext too (to compare the two). */
    private final boolean plaintextToo;
    private Duration migrationTime = Duration.ZERO;
    // Copy on write: the front reads it on its own threads while the benchmark may add a replica.
    private final List<ServiceProcess> replicas = new CopyOnWriteArrayList<>();
    private final Map<Long, Integer> initialStock = new ConcurrentHashMap<>();
    private LocalMariaDb mariaDb;
    private LocalRedis redis;
    private LocalRocketMq rocketMq;
    private SandboxServer sandbox;
    /** The WeChat Pay sandbox, null on a secured stack (whose services offer Alipay only, see configureReplicas). */
    private WechatSandboxServer wechatSandbox;
    private MemberTokens tokens;
    private FrontProxy front;
    private final Map<String, String> replicaEnv = new LinkedHashMap<>();
    private final Map<String, String> replicaSettings = new LinkedHashMap<>();

    private ServiceStack(Path dir, Timings timings, TestTls tls, boolean plaintextToo) {
        this.dir = dir;
        this.timings = timings;
        this.tls = tls;
        this.plaintextToo = plaintextToo;
    }

    /**
     * Starts the stack and waits until every replica is ready. {@code extraSettings} are given to every replica
     * as system properties (e.g. {@code shop.alipay.read-timeout=3s}) and win over the timings' settings.
     */
    public static ServiceStack start(Path dir, int replicas, Timings timings, Map<String, String> extraSettings) {
        return start(dir, replicas, timings, extraSettings, false, false);
    }

    /** {@link #start} as production runs: TLS and a user of its own to every server (the class comment). */
    public static ServiceStack startSecured(Path dir, int replicas, Timings timings, Map<String, String> extraSettings) {
        return start(dir, replicas, timings, extraSettings, true, false);
    }

    /**
     * {@link #startSecured}, but every server serves plaintext too (to compare the two): the replicas connect over TLS,
     * a service given {@link #plaintextSettings()} the same servers as the same users in plaintext.
     */
    public static ServiceStack startSecuredWithPlaintext(Path dir, int replicas, Timings timings,
            Map<String, String> extraSettings) {
        return start(dir, replicas, timings, extraSettings, true, true);
    }

    private static ServiceStack start(Path dir, int replicas, Timings timings, Map<String, String> extraSettings,
            boolean secured, boolean plaintextToo) {
        // Logging set up once, before the stack's parts start in parallel: JBoss LogManager's initialisation from two
        // threads at once can deadlock.
        java.util.logging.Logger.getLogger(ServiceStack.class.getName());
        Path root = dir.toAbsolutePath();
        ServiceStack stack = new ServiceStack(root, timings, secured ? TestTls.generate(root.resolve("tls")) : null,
                plaintextToo);
        try {
            Files.createDirectories(root);
            stack.startInfrastructure();
            stack.configureReplicas(extraSettings);
            if (secured) {
                stack.migrate();
            }
            stack.startReplicas(replicas);
            return stack;
        } catch (IOException e) {
            stack.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            stack.close();
            throw e;
        }
    }

    private void startInfrastructure() throws IOException {
        CompletableFuture<LocalMariaDb> db = CompletableFuture.supplyAsync(() -> tls == null
                ? LocalMariaDb.start(dir.resolve("mariadb"))
                : LocalMariaDb.startWithTls(dir.resolve("mariadb"), tls, plaintextToo));
        CompletableFuture<LocalRocketMq> mq = CompletableFuture.supplyAsync(() -> {
            LocalRocketMq broker = LocalRocketMq.create()
                    .transactionTimeoutMs(timings.brokerFirstCheck().toMillis())
                    .transactionCheckIntervalMs(timings.brokerCheckInterval().toMillis())
                    .transactionCheckMax(timings.brokerCheckMax())
                    .transactionOpBatchIntervalMs(200);
            if (tls != null) {
                broker.secured(tls, BROKER_ADMIN, BROKER_ADMIN_PASSWORD, plaintextToo);
            }
            broker.start();
            broker.createTopics(EXPIRY_TOPIC, PAID_TOPIC, REFUNDED_TOPIC);
            if (tls != null) {
                broker.addUser(BROKER_USER, BROKER_PASSWORD, BROKER_GRANTS.toArray(String[]::new));
            }
            return broker;
        });
        try {
            redis = tls == null ? LocalRedis.startNew()
                    : LocalRedis.startSecured(tls, REDIS_USER, REDIS_PASSWORD, plaintextToo);
            sandbox = SandboxServer.start(0);
            if (tls == null) {
                wechatSandbox = WechatSandboxServer.start(0, WechatSandboxServer.QUICK_REFUNDS);
            }
            tokens = MemberTokens.generate(dir);
            front = new FrontProxy(() -> Collections.unmodifiableList(replicas));
        } finally {
            mariaDb = join(db);
            rocketMq = join(mq);
        }
        mariaDb.createDatabase(DATABASE);
        if (tls != null) {
            mariaDb.createServiceUsers(DATABASE, DB_OWNER, DB_OWNER_PASSWORD, DB_SERVICE_USER, DB_SERVICE_PASSWORD);
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    private void configureReplicas(Map<String, String> extraSettings) {
        Map<String, String> env = replicaEnv;
        env.put("DB_REACTIVE_URL", mariaDb.reactiveUrl(DATABASE));
        env.put("DB_JDBC_URL", mariaDb.jdbcUrl(DATABASE));
        env.put("REDIS_URL", redis.url());
        env.put("ROCKETMQ_NAMESRV", rocketMq.nameServerAddress());
        if (tls == null) {
            env.put("DB_USER", LocalMariaDb.USER);
            env.put("DB_PASSWORD", LocalMariaDb.PASSWORD);
            env.put("REQUIRE_TLS", "false");
        } else {
            env.put("DB_USER", DB_SERVICE_USER);
            env.put("DB_PASSWORD", DB_SERVICE_PASSWORD);
            env.put("DB_SSL_MODE", "VERIFY_IDENTITY");
            env.put("DB_CA_PATH", tls.caPem().toString());
            env.put("REDIS_USER", REDIS_USER);
            env.put("REDIS_PASSWORD", REDIS_PASSWORD);
            env.put("REDIS_CA_PATH", tls.caPem().toString());
            env.put("ROCKETMQ_ACCESS_KEY", BROKER_USER);
            env.put("ROCKETMQ_SECRET_KEY", BROKER_PASSWORD);
            env.put("ROCKETMQ_TLS", "true");
            env.put("ROCKETMQ_CA_PATH", tls.caPem().toString());
            // The schema is migrated before, as its owner (migrate()): the service's user could not.
            env.put("DB_MIGRATE_AT_START", "false");
        }
        env.put("ALIPAY_APP_ID", SandboxServer.APP_ID);
        env.put("ALIPAY_GATEWAY_URL", sandbox.gatewayUrl());
        env.put("ALIPAY_NOTIFY_URL", front.url() + "/api/payments/alipay/notify");
        env.put("ALIPAY_SELLER_ID", SELLER_ID);
        env.putAll(sandbox.serviceKeys());
        if (wechatSandbox != null) {
            // Both wallets. WeChat's SDK is sent to the sandbox by shop.wechat.base-url, a setting production refuses
            // unless REQUIRE_TLS=false: a secured stack's services offer Alipay only.
            env.put("PAYMENT_CHANNELS", "alipay,wechat");
            env.putAll(wechatSandbox.serviceKeys());
            env.put("WECHAT_NOTIFY_URL", front.url() + "/api/payments/wechat/notify");
            env.put("WECHAT_REFUND_NOTIFY_URL", front.url() + "/api/payments/wechat/refund-notify");
            replicaSettings.put("shop.wechat.refund-interval", WechatSandboxServer.SERVICE_REFUND_INTERVAL);
            replicaSettings.put("shop.wechat.base-url", wechatSandbox.baseUrl());
        }
        env.put("QR_URL_SECRET", QR_URL_SECRET);
        env.put("JWT_ISSUER", tokens.issuer());
        env.put("JWT_AUDIENCE", tokens.audience());
        env.put("JWT_PUBLIC_KEY_LOCATION", tokens.publicKeyFile().toString());
        Map<String, String> settings = replicaSettings;
        // No collector here: tracing off unless a caller's settings turn it on (the benchmark's tracing phase). A
        // setting, not OTEL_SDK_DISABLED: the OpenTelemetry SDK reads that variable itself, whatever a setting says.
        settings.put("quarkus.otel.sdk.disabled", "true");
        settings.putAll(timings.serviceSettings());
        // The order streams and the benchmark hold far more unpaid orders per member than a shop allows; the
        // allowances are kept all the same (Invariants checks them), only this cap is off unless a caller sets it.
        settings.put("shop.order.max-unpaid-per-member", "0");
        settings.putAll(extraSettings);
    }

    /**
     * The migrations, as production runs them before the services: the same artifact, as the schema's owner, exiting
     * once they are done ({@code MIGRATE_AND_EXIT}). Its output goes to {@code migrate.log}.
     */
    private void migrate() {
        Map<String, String> env = new LinkedHashMap<>(replicaEnv);
        env.put("DB_USER", DB_OWNER);
        env.put("DB_PASSWORD", DB_OWNER_PASSWORD);
        env.put("DB_MIGRATE_AT_START", "true");
        env.put("MIGRATE_AND_EXIT", "true");
        Path log = dir.resolve("migrate.log");
        ProcessBuilder builder = new ProcessBuilder(PackagedArtifact.ofBuild().command(replicaSettings))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        long start = System.nanoTime();
        try {
            Process process = builder.start();
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Migrations did not finish within 180 s, see " + log);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Migrations failed (exit " + process.exitValue() + "), see " + log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        migrationTime = Duration.ofNanos(System.nanoTime() - start);
    }

    private void startReplicas(int count) {
        Map<String, String> env = replicaEnv;
        Map<String, String> settings = replicaSettings;
        PackagedArtifact artifact = PackagedArtifact.ofBuild();
        List<ServiceProcess> started = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            started.add(new ServiceProcess("replica-" + i, artifact, dir, env, settings));
        }
        replicas.addAll(started);
        // In parallel: three JVM start-ups at once on two cores take a while, but less than one after the other.
        started.forEach(ServiceProcess::spawn);
        started.forEach(ServiceProcess::awaitReady);
    }

    /**
     * One more replica with the same settings, not yet started: {@code artifact} may be the build's artifact on
     * another runtime ({@link PackagedArtifact#onJvm}). It joins the front once started; {@link #close()} stops it.
     */
    public ServiceProcess addReplica(String name, PackagedArtifact artifact) {
        return addReplica(name, artifact, Map.of());
    }

    /** {@link #addReplica(String, PackagedArtifact)} with settings of its own on top of the stack's. */
    public ServiceProcess addReplica(String name, PackagedArtifact artifact, Map<String, String> ownSettings) {
        Map<String, String> settings = new LinkedHashMap<>(replicaSettings);
        settings.putAll(ownSettings);
        ServiceProcess replica = new ServiceProcess(name, artifact, dir, replicaEnv, settings);
        replicas.add(replica);
        return replica;
    }

    /**
     * A service with the stack's settings and its own on top, outside the front (no request or notify reaches it but
     * the caller's), not yet started; the caller stops it.
     */
    public ServiceProcess outsideFront(String name, Map<String, String> ownSettings) {
        Map<String, String> settings = new LinkedHashMap<>(replicaSettings);
        settings.putAll(ownSettings);
        return new ServiceProcess(name, PackagedArtifact.ofBuild(), dir, replicaEnv, settings);
    }

    public List<ServiceProcess> replicas() {
        return Collections.unmodifiableList(replicas);
    }

    public String database() {
        return DATABASE;
    }

    public LocalMariaDb mariaDb() {
        return mariaDb;
    }

    public LocalRedis redis() {
        return redis;
    }

    public LocalRocketMq rocketMq() {
        return rocketMq;
    }

    public SandboxServer sandbox() {
        return sandbox;
    }

    /** The WeChat Pay sandbox; a secured stack has none (its services offer Alipay only). */
    public WechatSandboxServer wechatSandbox() {
        if (wechatSandbox == null) {
            throw new IllegalStateException("a secured stack's services offer Alipay only: no WeChat Pay sandbox");
        }
        return wechatSandbox;
    }

    public MemberTokens tokens() {
        return tokens;
    }

    /**
     * What a service of a stack {@link #startSecuredWithPlaintext secured with plaintext too} is given to reach the same
     * servers as the same users in plaintext.
     */
    public Map<String, String> plaintextSettings() {
        if (!plaintextToo) {
            throw new IllegalStateException("the stack's servers serve " + (tls == null ? "plaintext" : "TLS") + " only");
        }
        return Map.of("quarkus.datasource.reactive.mysql.ssl-mode", "DISABLED",
                "quarkus.datasource.jdbc.additional-jdbc-properties.sslMode", "DISABLED",
                "quarkus.redis.hosts", redis.plaintextUrl(),
                "shop.rocketmq.tls.enabled", "false",
                "shop.connections.require-tls", "false");
    }

    /** The secured stack's authority (its servers' certificates chain to it), null when the stack is plain. */
    public TestTls tls() {
        return tls;
    }

    /** How long the secured stack's migration run took, from spawn to exit. */
    public Duration migrationTime() {
        return migrationTime;
    }

    public Timings timings() {
        return timings;
    }

    public Path dir() {
        return dir;
    }

    /** The round-robin front over the live replicas. */
    public String apiUrl() {
        return front.url();
    }

    /** Requests the front answered 503 (no replica took the connection) and 502 (a replica failed mid-request). */
    public long frontUnavailable() {
        return front.unavailable();
    }

    public long frontFailedUpstream() {
        return front.failedUpstream();
    }

    /** A JDBC connection (root) to the services' database. */
    public Connection connect() {
        return mariaDb.connect(DATABASE);
    }

    /**
     * A new SKU with this much stock on hand, written straight into the database (the services' schema, migrated
     * at their start). Its initial stock is remembered for {@link #initialStock(long)}.
     */
    public long createSku(int stock, String price) {
        long id = NEXT_SKU.incrementAndGet();
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(
                "INSERT INTO sku (id, code, name, price, stock, lock_stock) VALUES (?, ?, ?, ?, ?, 0)")) {
            st.setLong(1, id);
            st.setString(2, "H-" + id);
            st.setString(3, "Harness SKU " + id);
            st.setBigDecimal(4, new BigDecimal(price));
            st.setInt(5, stock);
            st.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        initialStock.put(id, stock);
        return id;
    }

    /**
     * Lays a SKU's stock out in {@code buckets} buckets through the admin API of the first live replica
     * (PUT /api/admin/skus/{id}/buckets, as an admin would; the other replicas learn of it as in production), and
     * returns the SKU view it answered. Retries what failed on the server's side (5xx, no connection) a few times;
     * any other answer, or a view without these buckets, is an error.
     */
    public JsonNode setBuckets(long skuId, int buckets) {
        ServiceProcess replica = replicas.stream().filter(ServiceProcess::isAlive).findFirst()
                .orElseThrow(() -> new IllegalStateException("no live replica to set SKU " + skuId + "'s buckets"));
        return setBuckets(replica, skuId, buckets);
    }

    /** {@link #setBuckets(long, int)} through this replica. */
    public JsonNode setBuckets(ServiceProcess replica, long skuId, int buckets) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(replica.apiUrl() + "/api/admin/skus/" + skuId
                        + "/buckets")).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + tokens.adminToken("stack-admin"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"buckets\":" + buckets + "}")).build();
        String last = null;
        for (int attempt = 1; attempt <= 5; attempt++) {
            try {
                HttpResponse<String> response = ADMIN_HTTP.send(request, HttpResponse.BodyHandlers.ofString());
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() == 200) {
                    JsonNode view = JSON.readTree(response.body());
                    if (!view.has("buckets") || view.get("buckets").asInt() != buckets || view.get("id").asLong() != skuId) {
                        throw new IllegalStateException("PUT buckets " + buckets + " of SKU " + skuId + " on "
                                + replica.name() + " answered 200 with " + response.body());
                    }
                    return view;
                }
                if (response.statusCode() < 500) {
                    break;
                }
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Pause.of(Duration.ofMillis(300L * attempt));
        }
        throw new IllegalStateException("PUT buckets " + buckets + " of SKU " + skuId + " on " + replica.name()
                + ": " + last);
    }

    /** {@code count} new SKUs with the same stock and price. */
    public List<Long> createSkus(int count, int stock, String price) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(createSku(stock, price));
        }
        return ids;
    }

    /**
     * Remembers the stock of a SKU written into the database by other means (the benchmark's catalog writes its own
     * in batches), so that {@link Invariants} can hold its stock to it.
     */
    public void rememberInitialStock(long skuId, int stock) {
        initialStock.put(skuId, stock);
    }

    /** The stock a SKU was created with by {@link #createSku} (or {@link #rememberInitialStock}), or null. */
    public Integer initialStock(long skuId) {
        return initialStock.get(skuId);
    }

    /** Stops the services (SIGTERM, in parallel), the front, the sandbox, the broker, Redis and MariaDB. Logs stay. */
    @Override
    public void close() {
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (ServiceProcess replica : replicas) {
            stops.add(CompletableFuture.runAsync(replica::close));
        }
        stops.forEach(f -> {
            try {
                f.join();
            } catch (RuntimeException ignored) {
                // keep closing the rest
            }
        });
        quietly(front);
        quietly(sandbox);
        quietly(wechatSandbox);
        if (rocketMq != null) {
            try {
                rocketMq.stop();
            } catch (RuntimeException ignored) {
                // best effort
            }
        }
        if (redis != null) {
            try {
                redis.stop();
            } catch (RuntimeException ignored) {
                // best effort
            }
        }
        quietly(mariaDb);
    }

    private static void quietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // keep closing the rest
        }
    }
}
