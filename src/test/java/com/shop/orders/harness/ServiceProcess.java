package com.shop.orders.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.shop.orders.testsupport.PackagedArtifact;
import com.shop.orders.testsupport.Pause;

/**
 * One packaged service (the jar or the native executable of this build, {@link PackagedArtifact}, production
 * profile) as an OS process of its own, on its own HTTP and management ports, output appended to a log file.
 * {@link #start()} after {@link #kill()} or {@link #terminate} brings it back with the same ports and settings.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final PackagedArtifact artifact;
    private final Path log;
    private final int httpPort;
    private final int managementPort;
    private final Map<String, String> env;
    private final Map<String, String> settings;
    private volatile Process process;
    private volatile Duration startupTime = Duration.ZERO;
    private volatile long spawnedAt;
    /** Set from SIGTERM until the next start: a front takes no new requests to it (a terminating pod). */
    private volatile boolean draining;
    private volatile int starts;

    ServiceProcess(String name, PackagedArtifact artifact, Path dir, Map<String, String> env,
            Map<String, String> settings) {
        this.name = name;
        this.artifact = artifact;
        this.log = dir.toAbsolutePath().resolve(name + ".log");
        this.httpPort = Ports.free();
        this.managementPort = Ports.free();
        this.env = new LinkedHashMap<>(env);
        this.settings = new LinkedHashMap<>(settings);
        ChildProcesses.register(this::killQuietly);
    }

    public String name() {
        return name;
    }

    public PackagedArtifact artifact() {
        return artifact;
    }

    public String apiUrl() {
        return "http://127.0.0.1:" + httpPort;
    }

    public String managementUrl() {
        return "http://127.0.0.1:" + managementPort;
    }

    public long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    public Path log() {
        return log;
    }

    /** From spawn until /q/health/ready answered 200, of the latest start. */
    public Duration startupTime() {
        return startupTime;
    }

    /** How many times the process was started. */
    public int starts() {
        return starts;
    }

    /** Resident set size (VmRSS of /proc/pid/status), 0 when not running. */
    public long rssBytes() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return 0;
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    /**
     * The sum of the Prometheus samples called {@code name} (exactly, e.g. {@code orders_paid_total}) whose labels
     * contain each given {@code key, value} pair; 0 when there is none.
     */
    public double metric(String name, String... tagPairs) {
        if (tagPairs.length % 2 != 0) {
            throw new IllegalArgumentException("tags come in key, value pairs");
        }
        return Prometheus.sum(metricsText(), name, tagPairs);
    }

    /** The whole exposition of /q/metrics, for several readings from one scrape ({@link Prometheus#sum}). */
    public String metricsText() {
        return get(managementUrl() + "/q/metrics");
    }

    /** SIGKILL (a crash, or the OOM killer), waits for the exit. */
    public void kill() {
        killQuietly();
    }

    /**
     * SIGTERM, as Kubernetes stops a pod; waits up to {@code grace} and returns the exit code.
     *
     * @throws IllegalStateException when it is still running after the grace period (then it is killed)
     */
    public int terminate(Duration grace) {
        Process p = process;
        if (p == null) {
            throw new IllegalStateException(name + " was never started");
        }
        draining = true;
        p.destroy();
        try {
            if (!p.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
                throw new IllegalStateException(name + " still running " + grace + " after SIGTERM, killed; see " + log);
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** (Re)starts with the same ports and settings and waits until ready; no-op when running. */
    public void start() {
        spawn();
        awaitReady();
    }

    /** Starts the process without waiting; {@link #awaitReady()} waits. */
    public synchronized void spawn() {
        if (process != null && process.isAlive()) {
            return;
        }
        ProcessBuilder pb = new ProcessBuilder(artifact.command(settings)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(httpPort));
        pb.environment().put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(log, "\n===== " + java.time.Instant.now() + " start #" + (starts + 1) + " of " + name + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            spawnedAt = System.nanoTime();
            process = pb.start();
            starts++;
            draining = false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until /q/health/ready answers 200 and records the start-up time. */
    public void awaitReady() {
        long deadline = spawnedAt + READY_TIMEOUT.toNanos();
        while (true) {
            Process p = process;
            if (p == null || !p.isAlive()) {
                throw new IllegalStateException(name + " exited during start-up, see " + log + ":\n" + tail());
            }
            if (status(managementUrl() + "/q/health/ready") == 200) {
                startupTime = Duration.ofNanos(System.nanoTime() - spawnedAt);
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " not ready after " + READY_TIMEOUT + ", see " + log);
            }
            // Finely: the native executable is ready in a fraction of a second, and this is its start-up figure.
            Pause.of(Duration.ofMillis(20));
        }
    }

    public boolean isAlive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    /** Alive and not terminating: a front sends requests to it. */
    boolean takesTraffic() {
        return isAlive() && !draining;
    }

    int httpPort() {
        return httpPort;
    }

    /** SIGTERM with the service's own grace period plus margin; a process that does not exit is killed. */
    @Override
    public void close() {
        if (isAlive()) {
            try {
                terminate(Duration.ofSeconds(30));
            } catch (IllegalStateException e) {
                // killed
            }
        }
    }

    @Override
    public String toString() {
        return name + "[api=" + apiUrl() + ", management=" + managementUrl() + ", pid=" + pid() + "]";
    }

    private void killQuietly() {
        Process p = process;
        if (p != null && p.isAlive()) {
            draining = true;
            p.destroyForcibly();
            try {
                p.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    static int status(String url) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    static String get(String url) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + url + ": " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
