package com.shop.orders.connections;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How the service reaches its database and Redis securely: the authorities their certificates chain to, Redis's
 * user, and whether production may start with a connection that is not encrypted and verified. The database's own
 * settings (URL, user, password, {@code ssl-mode}) are Quarkus's datasource settings; RocketMQ's are
 * {@code shop.rocketmq.*}.
 */
@ConfigMapping(prefix = "shop.connections")
public interface ConnectionsConfig {

    /**
     * Refuse to start (production only) while a connection to the database, Redis or RocketMQ would be plaintext or
     * would not verify the server: the database's ssl-mode VERIFY_CA or VERIFY_IDENTITY with its authority given,
     * Redis over {@code rediss://}, RocketMQ with TLS on.
     */
    @WithDefault("false")
    boolean requireTls();

    Database database();

    Redis redis();

    /** The database server's authority, for ssl-mode VERIFY_CA and VERIFY_IDENTITY (one of the two). */
    interface Database {

        /** PEM content of the authority (or bundle) that issued the server's certificate, e.g. from a Secret. */
        Optional<String> ca();

        /** A PEM file of it, e.g. a mounted Secret or ConfigMap. */
        Optional<String> caPath();
    }

    /** Redis: the service's ACL user and, for {@code rediss://}, the server's authority (else the JDK's). */
    interface Redis {

        /** The service's user (Redis 6+ ACL); without it, the password is the default user's. */
        Optional<String> user();

        /** Its password: a secret, from the environment, never logged. */
        Optional<String> password();

        /** PEM content of the authority that issued the server's certificate. */
        Optional<String> ca();

        /** A PEM file of it. */
        Optional<String> caPath();
    }
}
