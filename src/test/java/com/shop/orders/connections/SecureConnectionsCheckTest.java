package com.shop.orders.connections;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.apache.rocketmq.remoting.protocol.SerializeType;
import org.junit.jupiter.api.Test;

import com.shop.orders.rocketmq.RocketMqConfig;
import com.shop.orders.testsupport.TestTls;

/** Which connection settings production refuses to start with, each refusal naming its variable first. */
class SecureConnectionsCheckTest {

    private static final TestTls TLS = TestTls.generate(Path.of("target", "secure-connections-check"));
    private static final Optional<String> CA = Optional.of(TLS.caPem().toString());
    private static final Optional<String> NONE = Optional.empty();

    @Test
    void everyConnectionEncryptedAndVerifiedPasses() {
        assertEquals(List.of(), problems(true, "VERIFY_IDENTITY", new Database(NONE, CA),
                new Redis(Optional.of("order-service"), Optional.of("secret"), NONE, CA), List.of("rediss://redis:6380"),
                new Broker(Optional.of("order-service"), Optional.of("secret"), true, CA)));
    }

    @Test
    void verifyingTheDatabaseWithoutItsAuthorityIsRefused() {
        assertNamed(problems(false, "VERIFY_CA", new Database(NONE, NONE), new Redis(NONE, NONE, NONE, NONE),
                List.of("redis://redis:6379"), new Broker(NONE, NONE, false, NONE)), "DB_CA");
    }

    @Test
    void plaintextIsRefusedOnlyWhileTlsIsRequired() {
        Database database = new Database(NONE, NONE);
        Redis redis = new Redis(NONE, NONE, NONE, NONE);
        Broker broker = new Broker(NONE, NONE, false, NONE);
        List<String> hosts = List.of("redis://redis:6379");
        assertEquals(List.of(), problems(false, "DISABLED", database, redis, hosts, broker));
        assertNamed(problems(true, "DISABLED", database, redis, hosts, broker), "DB_SSL_MODE", "REDIS_URL",
                "ROCKETMQ_TLS");
        // Encrypted but the server unverified is not enough either.
        assertNamed(problems(true, "REQUIRED", database, new Redis(NONE, NONE, NONE, NONE),
                List.of("rediss://redis:6380", "redis://replica:6379"), new Broker(NONE, NONE, true, NONE)),
                "DB_SSL_MODE", "REDIS_URL");
    }

    @Test
    void halfGivenCredentialsAndUnusableAuthoritiesAreRefused() {
        assertNamed(problems(false, "DISABLED", new Database(Optional.of("not a certificate"), NONE),
                new Redis(Optional.of("order-service"), NONE, NONE, Optional.of("/nonexistent/ca.pem")),
                List.of("redis://redis:6379"), new Broker(NONE, Optional.of("secret"), false,
                        Optional.of("/nonexistent/ca.pem"))),
                "DB_CA", "REDIS_PASSWORD", "REDIS_CA_PATH", "ROCKETMQ_ACCESS_KEY", "ROCKETMQ_CA_PATH");
    }

    /** One problem per variable, each line starting with it. */
    private static void assertNamed(List<String> problems, String... variables) {
        assertEquals(variables.length, problems.size(), problems.toString());
        for (String variable : variables) {
            assertTrue(problems.stream().anyMatch(problem -> problem.startsWith(variable + " (")),
                    variable + " not named in " + problems);
        }
    }

    private static List<String> problems(boolean requireTls, String sslMode, Database database, Redis redis,
            List<String> redisHosts, Broker broker) {
        ConnectionsConfig config = new ConnectionsConfig() {
            @Override
            public boolean requireTls() {
                return requireTls;
            }

            @Override
            public ConnectionsConfig.Database database() {
                return database;
            }

            @Override
            public ConnectionsConfig.Redis redis() {
                return redis;
            }
        };
        return new SecureConnectionsCheck(config, broker, sslMode, Optional.of(redisHosts)).problems();
    }

    private record Database(Optional<String> ca, Optional<String> caPath) implements ConnectionsConfig.Database {
    }

    private record Redis(Optional<String> user, Optional<String> password, Optional<String> ca,
            Optional<String> caPath) implements ConnectionsConfig.Redis {
    }

    private record Broker(Optional<String> accessKey, Optional<String> secretKey, boolean tlsEnabled,
            Optional<String> trustCertPath) implements RocketMqConfig {

        @Override
        public String nameServer() {
            return "mq:9876";
        }

        @Override
        public Duration sendTimeout() {
            return Duration.ofSeconds(3);
        }

        @Override
        public Duration pollNameServerInterval() {
            return Duration.ofSeconds(30);
        }

        @Override
        public int sendThreads() {
            return 8;
        }

        @Override
        public int sendQueue() {
            return 2000;
        }

        @Override
        public SerializeType headerEncoding() {
            return SerializeType.ROCKETMQ;
        }

        @Override
        public Tls tls() {
            return new Tls() {
                @Override
                public boolean enabled() {
                    return tlsEnabled;
                }

                @Override
                public Optional<String> trustCertPath() {
                    return trustCertPath;
                }
            };
        }
    }
}
