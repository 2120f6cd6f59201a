package com.shop.orders.connections;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.shop.orders.rocketmq.RocketMqConfig;
import com.shop.orders.startup.StartupCheck;

/**
 * Production refuses to start with a connection setting it cannot use: a half-given credential, an authority that is
 * not PEM certificates and, while {@code REQUIRE_TLS} is on, a connection to the database, Redis or RocketMQ that
 * would travel in plaintext or trust a server it has not verified. Such a service would start and then fail, or worse
 * work, without anyone noticing.
 */
@ApplicationScoped
public class SecureConnectionsCheck implements StartupCheck {

    private static final List<String> VERIFYING_MODES = List.of("VERIFY_CA", "VERIFY_IDENTITY");

    private final ConnectionsConfig config;
    private final RocketMqConfig rocketMq;
    private final String databaseSslMode;
    private final List<String> redisHosts;

    public SecureConnectionsCheck(ConnectionsConfig config, RocketMqConfig rocketMq,
            @ConfigProperty(name = "quarkus.datasource.reactive.mysql.ssl-mode", defaultValue = "disabled")
            String databaseSslMode,
            @ConfigProperty(name = "quarkus.redis.hosts") Optional<List<String>> redisHosts) {
        this.config = config;
        this.rocketMq = rocketMq;
        this.databaseSslMode = databaseSslMode.toUpperCase(Locale.ROOT).replace('-', '_');
        this.redisHosts = redisHosts.orElse(List.of());
    }

    @Override
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        TrustedAuthorities database = new TrustedAuthorities(config.database().ca(), config.database().caPath());
        TrustedAuthorities redis = new TrustedAuthorities(config.redis().ca(), config.redis().caPath());
        addIfAny(problems, database.problem("DB_CA (shop.connections.database.ca)",
                "DB_CA_PATH (shop.connections.database.ca-path)"));
        addIfAny(problems, redis.problem("REDIS_CA (shop.connections.redis.ca)",
                "REDIS_CA_PATH (shop.connections.redis.ca-path)"));
        rocketMq.tls().trustCertPath().filter(path -> !Files.isReadable(Path.of(path))).ifPresent(path -> problems
                .add("ROCKETMQ_CA_PATH (shop.rocketmq.tls.trust-cert-path): no readable file at " + path));
        if (rocketMq.accessKey().isPresent() && rocketMq.secretKey().isEmpty()) {
            problems.add("ROCKETMQ_SECRET_KEY (shop.rocketmq.secret-key) is not set, ROCKETMQ_ACCESS_KEY is");
        }
        if (rocketMq.secretKey().isPresent() && rocketMq.accessKey().isEmpty()) {
            problems.add("ROCKETMQ_ACCESS_KEY (shop.rocketmq.access-key) is not set, ROCKETMQ_SECRET_KEY is");
        }
        if (config.redis().user().isPresent() && config.redis().password().isEmpty()) {
            problems.add("REDIS_PASSWORD (shop.connections.redis.password) is not set, REDIS_USER is");
        }
        if (VERIFYING_MODES.contains(databaseSslMode) && !database.given()) {
            problems.add("DB_CA (shop.connections.database.ca) or DB_CA_PATH is not set: DB_SSL_MODE "
                    + databaseSslMode + " verifies the server's certificate against it");
        }
        if (config.requireTls()) {
            problems.addAll(plaintext());
        }
        return problems;
    }

    private List<String> plaintext() {
        List<String> problems = new ArrayList<>();
        String why = ", while REQUIRE_TLS is on (set it false only where the network itself is trusted)";
        if (!VERIFYING_MODES.contains(databaseSslMode)) {
            problems.add("DB_SSL_MODE (quarkus.datasource.reactive.mysql.ssl-mode) is " + databaseSslMode
                    + ": the database's certificate goes unverified; VERIFY_IDENTITY (or VERIFY_CA) is required" + why);
        }
        if (redisHosts.stream().anyMatch(host -> !RedisConnections.isTls(host))) {
            problems.add("REDIS_URL (quarkus.redis.hosts) is not rediss://: Redis would be reached in plaintext" + why);
        }
        if (!rocketMq.tls().enabled()) {
            problems.add("ROCKETMQ_TLS (shop.rocketmq.tls.enabled) is false: the name servers and brokers would be "
                    + "reached in plaintext" + why);
        }
        return problems;
    }

    private static void addIfAny(List<String> problems, String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }
}
