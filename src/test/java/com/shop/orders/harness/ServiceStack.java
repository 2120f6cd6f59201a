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
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.sandbox.SandboxServer;
import com.shop.orders.testsupport.LocalRedis;
import com.shop.orders.testsupport.LocalRocketMq;
import com.shop.orders.testsupport.MemberTokens;
import com.shop.orders.testsupport.PackagedArtifact;
import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.Timings;

/**
 * Everything a run with several replicas needs, owned by the stack: a MariaDB, a Redis and a RocketMQ name server
 * and broker of its own (free ports), the Alipay sandbox in this JVM, a JWT issuer, N packaged services as
 * separate processes, and a round-robin front over them ({@link #apiUrl()}), which is also the notify URL the
 * services give Alipay. State and logs stay under the given folder for diagnosis.
 */
public final class ServiceStack implements AutoCloseable {

    public static final String DATABASE = "orders";
    public static final String EXPIRY_TOPIC = "order-expiry";
    public static final String PAID_TOPIC = "order-paid";
    public static final String REFUNDED_TOPIC = "order-refunded";
    public static final String QR_URL_SECRET = "replica-harness-only-secret-0123456789abcdef";
    /** The sandbox's seller id, checked on every notify. */
    public static final String SELLER_ID = "2088102100000099";

    private static final AtomicLong NEXT_SKU = new AtomicLong(1_000_000);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient ADMIN_HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();

    private final Path dir;
    private final Timings timings;
    // Copy on write: the front reads it on its own threads while the benchmark may add a replica.
    private final List<ServiceProcess> replicas = new CopyOnWriteArrayList<>();
    private final Map<Long, Integer> initialStock = new ConcurrentHashMap<>();
    private LocalMariaDb mariaDb;
    private LocalRedis redis;
    private LocalRocketMq rocketMq;
    private SandboxServer sandbox;
    private MemberTokens tokens;
    private FrontProxy front;
    private final Map<String, String> replicaEnv = new LinkedHashMap<>();
    private final Map<String, String> replicaSettings = new LinkedHashMap<>();

    private ServiceStack(Path dir, Timings timings) {
        this.dir = dir;
        this.timings = timings;
    }

    /**
     * Starts the stack and waits until every replica is ready. {@code extraSettings} are given to every replica
     * as system properties (e.g. {@code shop.alipay.read-timeout=3s}) and win over the timings' settings.
     */
    public static ServiceStack start(Path dir, int replicas, Timings timings, Map<String, String> extraSettings) {
        // Logging set up once, before the stack's parts start in parallel: JBoss LogManager's initialisation from two
        // threads at once can deadlock.
        java.util.logging.Logger.getLogger(ServiceStack.class.getName());
        Path root = dir.toAbsolutePath();
        ServiceStack stack = new ServiceStack(root, timings);
        try {
            Files.createDirectories(root);
            stack.startInfrastructure();
            stack.startReplicas(replicas, extraSettings);
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
        CompletableFuture<LocalMariaDb> db = CompletableFuture.supplyAsync(() -> LocalMariaDb.start(dir.resolve("mariadb")));
        CompletableFuture<LocalRocketMq> mq = CompletableFuture.supplyAsync(() -> {
            LocalRocketMq broker = LocalRocketMq.create()
                    .transactionTimeoutMs(timings.brokerFirstCheck().toMillis())
                    .transactionCheckIntervalMs(timings.brokerCheckInterval().toMillis())
                    .transactionCheckMax(timings.brokerCheckMax())
                    .transactionOpBatchIntervalMs(200);
            broker.start();
            broker.createTopics(EXPIRY_TOPIC, PAID_TOPIC, REFUNDED_TOPIC);
            return broker;
        });
        try {
            redis = LocalRedis.startNew();
            sandbox = SandboxServer.start(0);
            tokens = MemberTokens.generate(dir);
            front = new FrontProxy(() -> Collections.unmodifiableList(replicas));
        } finally {
            mariaDb = join(db);
            rocketMq = join(mq);
        }
        mariaDb.createDatabase(DATABASE);
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

    private void startReplicas(int count, Map<String, String> extraSettings) {
        Map<String, String> env = replicaEnv;
        env.put("DB_REACTIVE_URL", mariaDb.reactiveUrl(DATABASE));
        env.put("DB_JDBC_URL", mariaDb.jdbcUrl(DATABASE));
        env.put("DB_USER", LocalMariaDb.USER);
        env.put("DB_PASSWORD", LocalMariaDb.PASSWORD);
        env.put("REDIS_URL", redis.url());
        env.put("ROCKETMQ_NAMESRV", rocketMq.nameServerAddress());
        env.put("ALIPAY_APP_ID", SandboxServer.APP_ID);
        env.put("ALIPAY_GATEWAY_URL", sandbox.gatewayUrl());
        env.put("ALIPAY_NOTIFY_URL", front.url() + "/api/payments/alipay/notify");
        env.put("ALIPAY_SELLER_ID", SELLER_ID);
        env.putAll(sandbox.serviceKeys());
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

    public MemberTokens tokens() {
        return tokens;
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

    /** The stock a SKU was created with by {@link #createSku}, or null. */
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
