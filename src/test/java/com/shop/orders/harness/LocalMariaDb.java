package com.shop.orders.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.TestTls;

/**
 * A MariaDB server of its own ({@code /usr/sbin/mariadbd}) on a free port, data under the given folder, as a child
 * process of the test JVM: fault tests stop, kill and restart it without touching the machine's database.
 * Production-like durability ({@code innodb_flush_log_at_trx_commit=1}). root has no password; the services
 * connect as {@link #USER}/{@link #PASSWORD}, created at the first start. Started {@link #startWithTls with TLS}, it
 * serves only encrypted connections ({@code require_secure_transport}) under the test's authority.
 */
public final class LocalMariaDb implements AutoCloseable {

    public static final String USER = "orders";
    public static final String PASSWORD = "orders";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Path dir;
    private final int port;
    private final TestTls tls;
    private final boolean plaintextToo;
    private volatile Process process;

    private LocalMariaDb(Path dir, int port, TestTls tls, boolean plaintextToo) {
        this.dir = dir;
        this.port = port;
        this.tls = tls;
        this.plaintextToo = plaintextToo;
    }

    /** Initialises a data folder under {@code dir} (when there is none yet) and starts the server. */
    public static LocalMariaDb start(Path dir) {
        return start(dir, null, true);
    }

    /**
     * {@link #start(Path)} serving TLS with the server certificate of {@code tls}; {@code plaintextToo} false refuses
     * a client without TLS ({@code require_secure_transport=ON}), true serves both (to compare them).
     */
    public static LocalMariaDb startWithTls(Path dir, TestTls tls, boolean plaintextToo) {
        return start(dir, tls, plaintextToo);
    }

    private static LocalMariaDb start(Path dir, TestTls tls, boolean plaintextToo) {
        try {
            Path root = dir.toAbsolutePath();
            Files.createDirectories(root);
            LocalMariaDb db = new LocalMariaDb(root, Ports.free(), tls, plaintextToo);
            if (!Files.isDirectory(root.resolve("data").resolve("mysql"))) {
                db.install();
            }
            ChildProcesses.register(db::killQuietly);
            db.start();
            try (Connection c = db.connect(""); Statement st = c.createStatement()) {
                for (String host : List.of("%", "127.0.0.1", "localhost")) {
                    st.execute("CREATE USER IF NOT EXISTS '" + USER + "'@'" + host + "' IDENTIFIED BY '" + PASSWORD + "'");
                    st.execute("GRANT ALL PRIVILEGES ON *.* TO '" + USER + "'@'" + host + "'");
                }
            }
            return db;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("MariaDB in " + dir + " started but refused the set-up", e);
        }
    }

    public int port() {
        return port;
    }

    public Path dir() {
        return dir;
    }

    /** The server's process id, -1 when it is not running. */
    public long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }

    public Path errorLog() {
        return dir.resolve("mariadb.err");
    }

    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database;
    }

    /** The Vert.x reactive client's URL: {@code mysql://127.0.0.1:port/db}. */
    public String reactiveUrl(String database) {
        return "mysql://127.0.0.1:" + port + "/" + database;
    }

    /** Drops the database if it exists and creates it empty, utf8mb4. */
    public void createDatabase(String name) {
        try (Connection c = connect(""); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS `" + name + "`");
            st.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Two users of {@code database}, as production has them (deployment/kubernetes/README.md, "Database users"): its
     * owner, who runs the migrations, and the service's, with DML on its tables only; both only over TLS when the
     * server serves nothing else.
     */
    public void createServiceUsers(String database, String owner, String ownerPassword, String service,
            String servicePassword) {
        String require = tls == null || plaintextToo ? "" : " REQUIRE SSL";
        try (Connection c = connect(""); Statement st = c.createStatement()) {
            for (String host : List.of("%", "127.0.0.1", "localhost")) {
                st.execute("CREATE USER IF NOT EXISTS '" + owner + "'@'" + host + "' IDENTIFIED BY '" + ownerPassword
                        + "'" + require);
                st.execute("GRANT ALL PRIVILEGES ON `" + database + "`.* TO '" + owner + "'@'" + host + "'");
                st.execute("CREATE USER IF NOT EXISTS '" + service + "'@'" + host + "' IDENTIFIED BY '"
                        + servicePassword + "'" + require);
                st.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON `" + database + "`.* TO '" + service + "'@'"
                        + host + "'");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new JDBC connection as root ({@code ""}: no default database). */
    public Connection connect(String database) {
        return connect(database, "root", "");
    }

    /** A new JDBC connection as this user, over TLS (the server verified) when the server serves it. */
    public Connection connect(String database, String user, String password) {
        try {
            return DriverManager.getConnection(jdbcUrl(database) + "?connectTimeout=3000" + tlsParameters(), user,
                    password);
        } catch (SQLException e) {
            throw new IllegalStateException("No connection to MariaDB on port " + port, e);
        }
    }

    /** Starts the server (no-op when running) and waits until it accepts connections. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of("/usr/sbin/mariadbd", "--no-defaults",
                "--datadir=" + dir.resolve("data"),
                "--port=" + port, "--bind-address=127.0.0.1",
                "--socket=/tmp/harness-mariadb-" + port + ".sock",
                "--pid-file=" + dir.resolve("mariadb.pid"),
                "--log-error=" + errorLog(),
                "--skip-name-resolve",
                "--innodb-flush-log-at-trx-commit=1",
                "--innodb-buffer-pool-size=256M",
                "--innodb-log-file-size=128M",
                "--max-connections=600",
                "--character-set-server=utf8mb4",
                "--collation-server=utf8mb4_unicode_ci"));
        if (tls != null) {
            cmd.addAll(List.of("--ssl-cert=" + tls.serverCertificatePem(), "--ssl-key=" + tls.serverKeyPem(),
                    "--ssl-ca=" + tls.caPem(), "--require-secure-transport=" + (plaintextToo ? "OFF" : "ON")));
        }
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--user=root");
        }
        try {
            process = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("mariadb.out").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!isUp()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("mariadbd exited with " + process.exitValue() + ", see " + errorLog());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("MariaDB not up after " + START_TIMEOUT + ", see " + errorLog());
            }
            Pause.of(Duration.ofMillis(100));
        }
    }

    /** Clean shutdown (SIGTERM), waits for the exit. */
    public synchronized void stop() {
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A crash: SIGKILL, waits for the exit; InnoDB recovers at the next {@link #start()}. */
    public synchronized void kill() {
        killQuietly();
    }

    public void restart() {
        stop();
        start();
    }

    public boolean isUp() {
        if (process == null || !process.isAlive()) {
            return false;
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl("") + "?connectTimeout=1000" + tlsParameters(), "root",
                "")) {
            return c.isValid(1);
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void close() {
        stop();
    }

    private String tlsParameters() {
        return tls == null ? "" : "&sslMode=verify-full&serverSslCert=" + tls.caPem();
    }

    private void killQuietly() {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            try {
                p.waitFor(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void install() throws IOException {
        List<String> cmd = new ArrayList<>(List.of("mariadb-install-db", "--no-defaults",
                "--datadir=" + dir.resolve("data"), "--auth-root-authentication-method=normal", "--skip-test-db"));
        if ("root".equals(System.getProperty("user.name"))) {
            cmd.add("--user=root");
        }
        Path log = dir.resolve("install.log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("mariadb-install-db failed, see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
