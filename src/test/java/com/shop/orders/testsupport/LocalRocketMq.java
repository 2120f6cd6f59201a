package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.apache.rocketmq.acl.common.AclClientRPCHook;
import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.netty.TlsSystemConfig;

/**
 * Handle around {@code deployment/rocketmq-local/rocketmq-local.sh}: a real RocketMQ 5.3.3 name server and
 * broker, each in its own JVM (never on the test classpath), on free ports, with state in a temporary folder.
 *
 * <p>{@link #start()} publishes the ports and the state folder as system properties, so that code running in
 * another class loader (e.g. a {@code @QuarkusTest} while the broker was started by a test resource) can get a
 * handle with {@link #current()} and stop or restart the broker.
 */
public final class LocalRocketMq {

    public static final String PROP_STATE_DIR = "test.rocketmq.state-dir";
    public static final String PROP_NAMESRV_PORT = "test.rocketmq.namesrv-port";
    public static final String PROP_BROKER_PORT = "test.rocketmq.broker-port";
    public static final String PROP_HA_PORT = "test.rocketmq.ha-port";
    /** Optional: path of rocketmq-local.sh, when the tests do not run from the project folder. */
    public static final String PROP_SCRIPT = "test.rocketmq.script";

    /** Topic every broker with {@code autoCreateTopicEnable=true} registers: its route means "broker is up". */
    private static final String DEFAULT_TOPIC = "TBW102";
    private static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicLong CLIENT_SEQ = new AtomicLong();
    /** Ports are taken below Linux's ephemeral range (32768+), where outgoing connections cannot grab them. */
    private static final int PORT_RANGE_START = 20_000;
    private static final int PORT_RANGE_END = 32_000;

    private final Path stateDir;
    private final int namesrvPort;
    private final int brokerPort;
    private final int haPort;
    private final Map<String, String> settings = new LinkedHashMap<>();
    /** The super user's credentials when ACL is on, else null. */
    private SessionCredentials admin;
    private boolean tls;
    private Thread shutdownHook;

    private LocalRocketMq(Path stateDir, int namesrvPort, int brokerPort, int haPort) {
        this.stateDir = stateDir;
        this.namesrvPort = namesrvPort;
        this.brokerPort = brokerPort;
        this.haPort = haPort;
    }

    /** New handle on free ports and a fresh temporary state folder, with the broker's default transaction settings. */
    public static LocalRocketMq create() {
        try {
            // Under the build's target/ when there is one (mvn clean removes it), else the system temp folder.
            Path target = Paths.get("target");
            Path dir = Files.isDirectory(target)
                    ? Files.createTempDirectory(target.toAbsolutePath(), "rocketmq-local-")
                    : Files.createTempDirectory("rocketmq-local-");
            int[] broker = freeBrokerPorts();
            int namesrv = freePort(broker);
            return new LocalRocketMq(dir, namesrv, broker[0], broker[1]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * New handle with settings suited to tests: first check after 1 s, then every 1 s, at most 8 checks,
     * op batch interval 200 ms (the broker default 3 s makes a committed message be checked and delivered again).
     */
    public static LocalRocketMq forTests() {
        return create()
                .transactionTimeoutMs(1000)
                .transactionCheckIntervalMs(1000)
                .transactionCheckMax(8)
                .transactionOpBatchIntervalMs(200);
    }

    /** Handle on the instance whose coordinates were published as system properties by {@link #start()}. */
    public static LocalRocketMq current() {
        String dir = System.getProperty(PROP_STATE_DIR);
        if (dir == null) {
            throw new IllegalStateException("No LocalRocketMq started in this JVM (" + PROP_STATE_DIR + " not set)");
        }
        return new LocalRocketMq(Paths.get(dir), intProperty(PROP_NAMESRV_PORT), intProperty(PROP_BROKER_PORT),
                intProperty(PROP_HA_PORT));
    }

    private static int intProperty(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException(name + " not set");
        }
        return Integer.parseInt(value.trim());
    }

    /**
     * {@link #current()} if one was started in this JVM and its name server still listens, else null. Its broker may
     * be stopped (a test called {@link #stopBroker()}): {@link #startBroker()} is a no-op for a running broker.
     */
    public static LocalRocketMq currentIfRunning() {
        if (System.getProperty(PROP_STATE_DIR) == null) {
            return null;
        }
        LocalRocketMq mq = current();
        return mq.isListening(mq.namesrvPort) ? mq : null;
    }

    public LocalRocketMq transactionTimeoutMs(long ms) {
        settings.put("TRANSACTION_TIMEOUT_MS", Long.toString(ms));
        return this;
    }

    public LocalRocketMq transactionCheckIntervalMs(long ms) {
        settings.put("TRANSACTION_CHECK_INTERVAL_MS", Long.toString(ms));
        return this;
    }

    public LocalRocketMq transactionCheckMax(int max) {
        settings.put("TRANSACTION_CHECK_MAX", Integer.toString(max));
        return this;
    }

    public LocalRocketMq transactionOpBatchIntervalMs(long ms) {
        settings.put("TRANSACTION_OP_BATCH_INTERVAL_MS", Long.toString(ms));
        return this;
    }

    /**
     * Authentication and authorization on (ACL 2.0, {@code adminUser} its super user; {@link #addUser} makes the others)
     * and TLS, under {@code tls}'s authority, on both the name server and the broker: only TLS, or TLS and plaintext
     * ({@code plaintextToo}, RocketMQ's "permissive" mode, to compare the two). This JVM's RocketMQ clients then verify
     * servers against that authority (RocketMQ's TLS settings are the JVM's).
     */
    public LocalRocketMq secured(TestTls tls, String adminUser, String adminPassword, boolean plaintextToo) {
        settings.put("TLS_MODE", plaintextToo ? "permissive" : "enforcing");
        settings.put("ACL_ADMIN_USER", adminUser);
        settings.put("ACL_ADMIN_PASSWORD", adminPassword);
        settings.put("TLS_CERT", tls.serverCertificatePem().toString());
        settings.put("TLS_KEY", tls.serverKeyPem().toString());
        settings.put("TLS_CA", tls.caPem().toString());
        this.admin = new SessionCredentials(adminUser, adminPassword);
        this.tls = true;
        TlsSystemConfig.tlsConfigFile = "";
        TlsSystemConfig.tlsTestModeEnable = false;
        TlsSystemConfig.tlsClientAuthServer = true;
        TlsSystemConfig.tlsClientTrustCertPath = tls.caPem().toString();
        return this;
    }

    /** A user of the (secured) broker with exactly these rights, e.g. {@code Topic:order-paid=Pub}. */
    public void addUser(String name, String password, String... grants) {
        List<String> command = new ArrayList<>(List.of("add-user", name, password));
        command.addAll(List.of(grants));
        runScript(Map.of(), command.toArray(String[]::new));
    }

    /** Starts the name server and the broker (no-op for a running one) and waits until the broker is registered. */
    public synchronized LocalRocketMq start() {
        runScript("start");
        System.setProperty(PROP_STATE_DIR, stateDir.toString());
        System.setProperty(PROP_NAMESRV_PORT, Integer.toString(namesrvPort));
        System.setProperty(PROP_BROKER_PORT, Integer.toString(brokerPort));
        System.setProperty(PROP_HA_PORT, Integer.toString(haPort));
        if (shutdownHook == null) {
            // The JVMs are not children of this process: make sure they do not outlive an aborted test run.
            shutdownHook = new Thread(() -> {
                try {
                    runScript("stop");
                } catch (RuntimeException ignored) {
                    // best effort at JVM exit
                }
            }, "local-rocketmq-stop");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        awaitBrokerRegistered();
        return this;
    }

    /** Kills the broker and the name server, waits for both to exit and deletes the store (logs stay). */
    public synchronized void stop() {
        runScript("stop");
        deleteRecursively(stateDir.resolve("store"));
        if (Objects.equals(System.getProperty(PROP_STATE_DIR), stateDir.toString())) {
            System.clearProperty(PROP_STATE_DIR);
            System.clearProperty(PROP_NAMESRV_PORT);
            System.clearProperty(PROP_BROKER_PORT);
            System.clearProperty(PROP_HA_PORT);
        }
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
            shutdownHook = null;
        }
    }

    /**
     * Kills the broker (SIGKILL: a crash, immediate) and waits until the name server has dropped its route.
     * Store and conf stay, {@link #startBroker()} brings the same broker back.
     */
    public void stopBroker() {
        stopBroker(false);
    }

    /** Stops the broker; {@code graceful} sends SIGTERM (the broker's own shutdown takes about 13 s). */
    public synchronized void stopBroker(boolean graceful) {
        Map<String, String> env = new HashMap<>();
        env.put("STOP_GRACE_S", graceful ? "30" : "0");
        runScript(env, "stop-broker");
        withProducer(producer -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < deadline && hasRoute(producer, DEFAULT_TOPIC, 1)) {
                Pause.of(Duration.ofMillis(100));
            }
            return null;
        });
    }

    /** Starts the broker again with the same conf and store and waits until it is registered at the name server. */
    public synchronized void startBroker() {
        runScript("start-broker");
        awaitBrokerRegistered();
    }

    /** Creates the topics (4 queues, idempotent) and waits until each route is visible at the name server. */
    public void createTopics(String... topics) {
        withProducer(producer -> {
            for (String topic : topics) {
                long deadline = System.nanoTime() + REGISTRATION_TIMEOUT.toNanos();
                Exception last = null;
                while (true) {
                    try {
                        if (!hasRoute(producer, topic, 4)) {
                            producer.createTopic(DEFAULT_TOPIC, topic, 4, null);
                        }
                        if (hasRoute(producer, topic, 4)) {
                            break;
                        }
                    } catch (MQClientException | RuntimeException e) {
                        last = e;
                    }
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("Topic " + topic + " not routable after "
                                + REGISTRATION_TIMEOUT + ", see " + stateDir.resolve("logs"), last);
                    }
                    Pause.of(Duration.ofMillis(200));
                }
            }
            return null;
        });
    }

    public String nameServerAddress() {
        return "127.0.0.1:" + namesrvPort;
    }

    public String brokerAddress() {
        return "127.0.0.1:" + brokerPort;
    }

    public Path stateDir() {
        return stateDir;
    }

    /** The broker JVM's process id (from rocketmq-local.sh's pid file), -1 when it is not running. */
    public long brokerPid() {
        try {
            return Long.parseLong(Files.readString(stateDir.resolve("broker.pid")).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    public int nameServerPort() {
        return namesrvPort;
    }

    public int brokerPort() {
        return brokerPort;
    }

    public int haPort() {
        return haPort;
    }

    /** True when the name server currently has a route for the broker's default topic. */
    public boolean brokerRegistered() {
        return withProducer(producer -> hasRoute(producer, DEFAULT_TOPIC, 1));
    }

    @Override
    public String toString() {
        return "LocalRocketMq[namesrv=" + nameServerAddress() + ", broker=" + brokerAddress() + ", dir=" + stateDir + "]";
    }

    // ------------------------------------------------------------------------------------------------------

    /**
     * Waits until the name server routes the broker. The broker registers once at start-up, but only with the name
     * servers its client has already found "available" (an asynchronous scan); when it loses that race the next
     * registration comes 10 s later. So, if it is not registered soon, ask it to register now: an admin
     * UPDATE_BROKER_CONFIG that sets brokerPermission (to its current value, 6 = read/write) makes the broker
     * call registerBrokerAll at once. The first ask comes after 300 ms: asking a registered broker again changes
     * nothing, and it lost the race at most starts.
     */
    private void awaitBrokerRegistered() {
        withProducer(producer -> {
            long start = System.nanoTime();
            long deadline = start + REGISTRATION_TIMEOUT.toNanos();
            long nextPoke = start + TimeUnit.MILLISECONDS.toNanos(300);
            while (!hasRoute(producer, DEFAULT_TOPIC, 1)) {
                long now = System.nanoTime();
                if (!isListening(namesrvPort)) {
                    throw new IllegalStateException("Name server " + nameServerAddress() + " is not running (killed?)"
                            + ", see " + stateDir.resolve("logs"));
                }
                if (now > deadline) {
                    throw new IllegalStateException("Broker not registered at " + nameServerAddress() + " after "
                            + REGISTRATION_TIMEOUT + ", see " + stateDir.resolve("logs"));
                }
                if (now > nextPoke) {
                    nextPoke = now + TimeUnit.SECONDS.toNanos(3);
                    Properties props = new Properties();
                    props.setProperty("brokerPermission", "6");
                    try {
                        producer.getDefaultMQProducerImpl().getMqClientFactory().getMQClientAPIImpl()
                                .updateBrokerConfig(brokerAddress(), props, 3000);
                    } catch (Exception e) {
                        // broker not ready for admin requests yet: try again on the next poke
                    }
                }
                Pause.of(Duration.ofMillis(100));
            }
            return null;
        });
    }

    private static boolean hasRoute(DefaultMQProducer producer, String topic, int minQueues) {
        try {
            List<MessageQueue> queues = producer.fetchPublishMessageQueues(topic);
            return queues != null && queues.size() >= minQueues;
        } catch (MQClientException | RuntimeException e) {
            return false;
        }
    }

    private interface ProducerWork<T> {
        T run(DefaultMQProducer producer) throws Exception;
    }

    private <T> T withProducer(ProducerWork<T> work) {
        String id = "local-rocketmq-admin-" + ProcessHandle.current().pid() + "-" + CLIENT_SEQ.incrementAndGet();
        DefaultMQProducer producer = admin == null ? new DefaultMQProducer(id)
                : new DefaultMQProducer(id, new AclClientRPCHook(admin));
        producer.setUseTLS(tls);
        producer.setNamesrvAddr(nameServerAddress());
        producer.setInstanceName(id);
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout(3000);
        try {
            producer.start();
            return work.run(producer);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            producer.shutdown();
        }
    }

    private void runScript(String command) {
        runScript(Map.of(), command);
    }

    private void runScript(Map<String, String> extraEnv, String... commandAndArguments) {
        Path script = script();
        Path log = stateDir.resolve("rocketmq-local-script.log");
        String command = commandAndArguments[0];
        List<String> line = new ArrayList<>(List.of("bash", script.toString()));
        line.addAll(List.of(commandAndArguments));
        try {
            Files.createDirectories(stateDir);
            ProcessBuilder pb = new ProcessBuilder(line)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            Map<String, String> env = pb.environment();
            env.put("ROCKETMQ_LOCAL_DIR", stateDir.toString());
            env.put("NAMESRV_PORT", Integer.toString(namesrvPort));
            env.put("BROKER_PORT", Integer.toString(brokerPort));
            env.put("HA_PORT", Integer.toString(haPort));
            env.put("STOP_GRACE_S", "0"); // throw-away state: no need for the broker's 13 s graceful shutdown
            env.putAll(settings);
            env.putAll(extraEnv);
            Process p = pb.start();
            if (!p.waitFor(SCRIPT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("rocketmq-local.sh " + command + " timed out, see " + log);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("rocketmq-local.sh " + command + " failed (exit " + p.exitValue()
                        + "):\n" + tail(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static Path script() {
        String explicit = System.getProperty(PROP_SCRIPT);
        if (explicit != null) {
            return Paths.get(explicit);
        }
        Path relative = Paths.get("deployment", "rocketmq-local", "rocketmq-local.sh");
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(relative);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(relative + " not found above " + Paths.get("").toAbsolutePath()
                + "; set -D" + PROP_SCRIPT);
    }

    private boolean isListening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A free port (wildcard bind) in the same range, other than the broker's. */
    private static int freePort(int[] brokerPorts) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int p = random.nextInt(PORT_RANGE_START, PORT_RANGE_END);
            if (Math.abs(p - brokerPorts[0]) > 3 && canBind(p)) {
                return p;
            }
        }
        throw new IllegalStateException("No free port for the name server");
    }

    /**
     * A broker listenPort p with p-2 (the broker's "fast"/VIP remoting port) and p+1 (HA, binds 0.0.0.0) free too.
     */
    private static int[] freeBrokerPorts() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int p = random.nextInt(PORT_RANGE_START + 2, PORT_RANGE_END - 1);
            if (canBind(p) && canBind(p - 2) && canBind(p + 1)) {
                return new int[] {p, p + 1};
            }
        }
        throw new IllegalStateException("No free port triple for the broker");
    }

    private static boolean canBind(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(port)); // wildcard: also fails when 127.0.0.1:port is taken
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // best effort
        }
    }
}
