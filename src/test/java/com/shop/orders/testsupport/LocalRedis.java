package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis server of the test suite's own, on a free port, so that fault tests can stop and start it
 * without touching the machine's Redis. Coordinates are published as a system property, so that a test
 * in another class loader than the test resource that started it gets a handle with {@link #current()}.
 * {@link #startSecured} starts one as production runs it: TLS only, no default user, the service's user with the
 * rights it needs (and no others).
 */
public final class LocalRedis {

    public static final String PROP_PORT = "test.redis.port";
    /**
     * What the service's user may do (deployment/kubernetes/README.md, "Redis user"): its keys and channel, and the
     * commands the service sends (the connection's own, the query budget's hashes and script, the transitions'
     * publish and subscribe).
     */
    public static final String SERVICE_RIGHTS = "resetkeys ~shop:* resetchannels &shop:* -@all +@connection +exists "
            + "+hset +hget +hmget +hincrby +pexpireat +eval +evalsha +publish +subscribe +unsubscribe";
    private static final String ADMIN = "harness-admin";
    private static final String ADMIN_PASSWORD = "harness-admin-only-password";

    private final int port;
    private final TestTls tls;
    /** A secured server's plaintext port, 0 when it has none. */
    private final int plaintextPort;

    private LocalRedis(int port, TestTls tls, int plaintextPort) {
        this.port = port;
        this.tls = tls;
        this.plaintextPort = plaintextPort;
    }

    private LocalRedis(int port) {
        this(port, null, 0);
    }

    /** The suite's Redis, started on first use and stopped when the JVM exits. */
    public static synchronized LocalRedis current() {
        String port = System.getProperty(PROP_PORT);
        if (port != null) {
            return new LocalRedis(Integer.parseInt(port));
        }
        LocalRedis redis = new LocalRedis(freePort());
        redis.start();
        System.setProperty(PROP_PORT, Integer.toString(redis.port));
        Runtime.getRuntime().addShutdownHook(new Thread(redis::stop, "local-redis-stop"));
        return redis;
    }

    /**
     * An independent Redis on a free port of its own, started now and stopped when the JVM exits; unlike
     * {@link #current()} it is not published to other class loaders, so several can run side by side.
     */
    public static LocalRedis startNew() {
        LocalRedis redis = new LocalRedis(freePort());
        redis.start();
        Runtime.getRuntime().addShutdownHook(new Thread(redis::stop, "local-redis-stop-" + redis.port));
        return redis;
    }

    /**
     * A Redis that serves TLS under the test's authority (and plaintext on a port of its own too, to compare the two,
     * when {@code plaintextToo}), without a default user: {@code user} with {@link #SERVICE_RIGHTS} and
     * {@code password}, and an admin of the harness's own (to stop it).
     */
    public static LocalRedis startSecured(TestTls tls, String user, String password, boolean plaintextToo) {
        LocalRedis redis = new LocalRedis(freePort(), tls, plaintextToo ? freePort() : 0);
        try {
            Path acl = Files.createTempFile("redis-users-", ".acl");
            Files.writeString(acl, "user default off\n"
                    + "user " + ADMIN + " on >" + ADMIN_PASSWORD + " ~* &* +@all\n"
                    + "user " + user + " on >" + password + " " + SERVICE_RIGHTS + "\n");
            run(List.of("redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port",
                    Integer.toString(redis.plaintextPort),
                    "--tls-port", Integer.toString(redis.port), "--tls-cert-file", tls.serverCertificatePem().toString(),
                    "--tls-key-file", tls.serverKeyPem().toString(), "--tls-ca-cert-file", tls.caPem().toString(),
                    "--tls-auth-clients", "no", "--aclfile", acl.toString(), "--save", "", "--appendonly", "no",
                    "--dir", System.getProperty("java.io.tmpdir")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        redis.awaitUp();
        Runtime.getRuntime().addShutdownHook(new Thread(redis::stop, "local-redis-stop-" + redis.port));
        return redis;
    }

    /** Its address: {@code rediss://localhost:port} (the name its certificate bears) when it serves TLS. */
    public String url() {
        return tls == null ? "redis://127.0.0.1:" + port : "rediss://localhost:" + port;
    }

    /** The plaintext address of a secured server started with plaintext too. */
    public String plaintextUrl() {
        if (plaintextPort == 0) {
            throw new IllegalStateException("Redis on " + port + " serves TLS only");
        }
        return "redis://127.0.0.1:" + plaintextPort;
    }

    public int port() {
        return port;
    }

    /** Starts the server (no-op when it answers already); nothing is kept on disk. */
    public void start() {
        if (isUp()) {
            return;
        }
        run(List.of("redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", Integer.toString(port),
                "--save", "", "--appendonly", "no", "--dir", System.getProperty("java.io.tmpdir")));
        awaitUp();
    }

    private void awaitUp() {
        for (int i = 0; i < 100 && !isUp(); i++) {
            Pause.of(Duration.ofMillis(50));
        }
        if (!isUp()) {
            throw new IllegalStateException("Redis did not start on port " + port);
        }
    }

    public void stop() {
        run(cli("shutdown", "nosave"));
    }

    public boolean isUp() {
        return run(cli("ping")) == 0;
    }

    /** redis-cli against this server, over TLS and as the harness's admin when it is secured. */
    private List<String> cli(String... command) {
        List<String> cli = new ArrayList<>(List.of("redis-cli", "-h", tls == null ? "127.0.0.1" : "localhost", "-p",
                Integer.toString(port)));
        if (tls != null) {
            cli.addAll(List.of("--tls", "--cacert", tls.caPem().toString(), "--user", ADMIN, "--pass",
                    ADMIN_PASSWORD, "--no-auth-warning"));
        }
        cli.addAll(List.of(command));
        return cli;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
