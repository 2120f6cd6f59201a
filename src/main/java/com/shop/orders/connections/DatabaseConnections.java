package com.shop.orders.connections;

import java.util.List;

import jakarta.inject.Singleton;

import io.quarkus.reactive.mysql.client.MySQLPoolCreator;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.MySQLPool;
import io.vertx.mysqlclient.SslMode;
import io.vertx.sqlclient.Pool;

/**
 * The reactive pool as Quarkus configures it (URL, user, {@code ssl-mode}), with what its settings cannot say: the
 * server's authority as PEM content or file ({@link ConnectionsConfig.Database}), and the host name checked exactly
 * when the mode is VERIFY_IDENTITY (Vert.x checks it only when given the algorithm, and refuses the mode without).
 * Flyway's JDBC connection takes the same ssl-mode and authority (application.properties).
 */
@Singleton
public class DatabaseConnections implements MySQLPoolCreator {

    private final TrustedAuthorities authorities;

    public DatabaseConnections(ConnectionsConfig config) {
        this.authorities = new TrustedAuthorities(config.database().ca(), config.database().caPath());
    }

    @Override
    @SuppressWarnings("deprecation") // Quarkus casts the pool made here to MySQLPool, which MySQLPool.pool makes
    public Pool create(Input input) {
        List<MySQLConnectOptions> servers = input.mySQLConnectOptionsList();
        servers.forEach(this::secure);
        return MySQLPool.pool(input.vertx(), servers, input.poolOptions());
    }

    void secure(MySQLConnectOptions server) {
        SslMode mode = server.getSslMode();
        if (mode != SslMode.VERIFY_CA && mode != SslMode.VERIFY_IDENTITY) {
            return;
        }
        if (authorities.given()) {
            server.setTrustOptions(authorities.trustOptions());
        }
        server.setHostnameVerificationAlgorithm(mode == SslMode.VERIFY_IDENTITY ? "HTTPS" : "");
    }
}
