package com.shop.orders.member;

import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;

import org.eclipse.microprofile.jwt.JsonWebToken;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * Member tokens as the security layer verifies them, remembered until they expire. A storefront sends the same
 * token with every request of a session; checking its RSA signature and claims again each time was the largest
 * single cost of a placed order in the service's profile. A token is the same string only if it is the same signed
 * token, so a remembered one is as verified as a fresh check; it is forgotten at its expiry or at the end of its
 * allowed age (mp.jwt.verify.token.age), whichever comes first, and never outlives either.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class VerifiedTokens extends DefaultJWTParser {

    private final Cache<TokenKey, JsonWebToken> verified;

    @Inject
    public VerifiedTokens(JWTAuthContextInfo authContext, MemberConfig config) {
        super(authContext);
        this.verified = Caffeine.newBuilder()
                .maximumSize(config.verifiedTokens())
                .expireAfter(new UntilInvalid(authContext.getTokenAge()))
                // Evictions on the calling thread: a few map operations, no hand-off to a pool.
                .executor(Runnable::run)
                .build();
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        TokenKey key = new TokenKey(token);
        JsonWebToken known = verified.getIfPresent(key);
        if (known != null) {
            return known;
        }
        JsonWebToken fresh = super.parse(token);
        verified.put(key, fresh);
        return fresh;
    }

    /**
     * The token if this instance has verified it before and it is still valid, else null. Never verifies: for a
     * shortcut that leaves every other token to the security layer.
     */
    public JsonWebToken verifiedBefore(String token) {
        return verified.getIfPresent(new TokenKey(token));
    }

    /**
     * A token as the memory's key, compared in full but hashed on its last characters only: those are its signature's,
     * as unpredictable as the whole, and every request brings its token as a new string, whose hash of some 700
     * characters was most of a look-up (async-profiler, flash-sale losers). Only verified tokens are stored, so no one
     * can choose keys that collide. {@code equals} is written out too: a record's generated one is an invokedynamic
     * that the native executable runs as interpreted method handles with an access check on every call, 1.2 % of its
     * CPU at 200 orders/s (bench/cpu-profile.sh with frame pointers, docs/benchmark.md).
     */
    record TokenKey(String token) {

        private static final int HASHED_CHARS = 32;

        @Override
        public boolean equals(Object other) {
            return other instanceof TokenKey key && token.equals(key.token);
        }

        @Override
        public int hashCode() {
            int hash = 0;
            for (int i = Math.max(0, token.length() - HASHED_CHARS); i < token.length(); i++) {
                hash = 31 * hash + token.charAt(i);
            }
            return hash;
        }
    }

    /** Kept until the token's expiry or the end of its allowed age (seconds, null: none), whichever comes first. */
    private record UntilInvalid(Long maxAgeSeconds) implements Expiry<TokenKey, JsonWebToken> {

        @Override
        public long expireAfterCreate(TokenKey key, JsonWebToken token, long currentTime) {
            long until = token.getExpirationTime();
            if (maxAgeSeconds != null && token.getIssuedAtTime() > 0) {
                until = Math.min(until, token.getIssuedAtTime() + maxAgeSeconds);
            }
            return TimeUnit.SECONDS.toNanos(Math.max(0, until - System.currentTimeMillis() / 1000));
        }

        @Override
        public long expireAfterUpdate(TokenKey key, JsonWebToken token, long currentTime, long currentDuration) {
            return currentDuration;
        }

        @Override
        public long expireAfterRead(TokenKey key, JsonWebToken token, long currentTime, long currentDuration) {
            return currentDuration;
        }
    }
}
