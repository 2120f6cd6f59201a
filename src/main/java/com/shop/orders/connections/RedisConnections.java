package com.shop.orders.connections;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.inject.Singleton;

import io.quarkus.redis.client.RedisOptionsCustomizer;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.RedisOptions;

/**
 * Redis as the service's ACL user, over TLS for {@code rediss://} addresses with the server verified (its
 * authority, else the JDK's, and its host name). Quarkus's Redis settings take a password but no user, and the
 * client reads a user only from the address: the user and password go into each address here, from settings
 * that keep the password out of the address an operator writes.
 */
@Singleton
public class RedisConnections implements RedisOptionsCustomizer {

    private final ConnectionsConfig.Redis config;
    private final TrustedAuthorities authorities;

    public RedisConnections(ConnectionsConfig config) {
        this.config = config.redis();
        this.authorities = new TrustedAuthorities(this.config.ca(), this.config.caPath());
    }

    @Override
    public void customize(String clientName, RedisOptions options) {
        List<String> endpoints = options.getEndpoints().stream().map(this::withCredentials).toList();
        options.setEndpoints(endpoints);
        if (endpoints.stream().anyMatch(RedisConnections::isTls)) {
            NetClientOptions net = options.getNetClientOptions();
            net.setSsl(true).setHostnameVerificationAlgorithm("HTTPS");
            if (authorities.given()) {
                net.setTrustOptions(authorities.trustOptions());
            }
        }
    }

    static boolean isTls(String endpoint) {
        return endpoint.startsWith("rediss://");
    }

    private String withCredentials(String endpoint) {
        if (config.password().isEmpty()) {
            return endpoint;
        }
        URI uri = URI.create(endpoint);
        // The client URL-decodes the user information; the user defaults to Redis's "default" user.
        String userInfo = encode(config.user().orElse("default")) + ":" + encode(config.password().get());
        return uri.getScheme() + "://" + userInfo + "@" + uri.getRawAuthority().replaceFirst("^.*@", "")
                + (uri.getRawPath() == null ? "" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
