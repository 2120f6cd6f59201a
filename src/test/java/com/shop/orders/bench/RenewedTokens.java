package com.shop.orders.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.shop.orders.testsupport.MemberTokens;

/**
 * Bearer tokens for traffic that outlasts a token: the service takes none older than an hour
 * (mp.jwt.verify.token.age) nor one made to live longer (smallrye.jwt.time-to-live), so, as a storefront renews
 * its sessions' tokens, the members' and the admin's are made anew every {@link #RENEW_EVERY}.
 */
final class RenewedTokens implements AutoCloseable {

    static final Duration RENEW_EVERY = Duration.ofMinutes(20);
    private static final String ADMIN = "bench-soak-admin";

    private final MemberTokens tokens;
    private final int members;
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-token-renewer");
        t.setDaemon(true);
        return t;
    });
    private volatile List<String> current;
    private volatile String admin;

    RenewedTokens(MemberTokens tokens, int members) {
        this.tokens = tokens;
        this.members = members;
        renew();
        renewer.scheduleAtFixedRate(this::renew, RENEW_EVERY.toSeconds(), RENEW_EVERY.toSeconds(), TimeUnit.SECONDS);
    }

    /** The token of the k-th member (in turn). */
    String member(long k) {
        List<String> tokens = current;
        return tokens.get((int) (k % tokens.size()));
    }

    String admin() {
        return admin;
    }

    private void renew() {
        current = Tokens.of(tokens, members);
        admin = tokens.adminToken(ADMIN);
    }

    @Override
    public void close() {
        renewer.shutdownNow();
    }
}
