package com.shop.orders.testsupport;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Redis server of the test suite's own, on a free port, so that fault tests can stop and start it
 * without touching the machine's Redis. Coordinates are published as a system property, so that a test
 * in another class loader than the test resource that started it gets a handle with {@link #current()}.
 */
public final class LocalRedis {

    public static final String PROP_PORT = "test.redis.port";

    private final int port;

    private LocalRedis(int port) {
        this.port = port;
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

    public String url() {
        return "redis://127.0.0.1:" + port;
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
        for (int i = 0; i < 100 && !isUp(); i++) {
            Pause.of(Duration.ofMillis(50));
        }
        if (!isUp()) {
            throw new IllegalStateException("Redis did not start on port " + port);
        }
    }

    public void stop() {
        run(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port), "shutdown", "nosave"));
    }

    public boolean isUp() {
        return run(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port), "ping")) == 0;
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
