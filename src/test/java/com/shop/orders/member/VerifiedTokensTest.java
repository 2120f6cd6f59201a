package com.shop.orders.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.shop.orders.testsupport.MemberTokens;

import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;

class VerifiedTokensTest {

    private static MemberTokens issuer;

    @BeforeAll
    static void issuer(@TempDir Path dir) {
        issuer = MemberTokens.generate(dir);
    }

    @Test
    void aTokenIsCheckedOnceThenAnsweredFromMemory() throws ParseException {
        VerifiedTokens tokens = tokens(100, null);
        String token = token(Duration.ofHours(1));

        assertSame(tokens.parse(token), tokens.parse(token));
        assertEquals("member-1", tokens.parse(token).getSubject());
    }

    @Test
    void anExpiredTokenIsRefusedThoughItWasRemembered() throws ParseException {
        VerifiedTokens tokens = tokens(100, null);
        String token = token(Duration.ofSeconds(2));
        tokens.parse(token);

        awaitRefused(tokens, token);
    }

    @Test
    void aTokenPastItsAllowedAgeIsRefusedThoughItWasRemembered() throws ParseException {
        VerifiedTokens tokens = tokens(100, 2L);
        String token = token(Duration.ofHours(1));
        tokens.parse(token);

        awaitRefused(tokens, token);
    }

    @Test
    void aRememberedTokenWithAnotherPayloadIsRefused() throws ParseException {
        VerifiedTokens tokens = tokens(100, null);
        String token = token(Duration.ofHours(1));
        tokens.parse(token);
        String[] parts = token.split("\\.");
        String otherPayload = Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1])).replace("member-1", "member-2").getBytes());

        String forged = parts[0] + "." + otherPayload + "." + parts[2];

        // Hashed alike (the same signature), told apart in full.
        assertEquals(new VerifiedTokens.TokenKey(token).hashCode(), new VerifiedTokens.TokenKey(forged).hashCode());
        assertNull(tokens.verifiedBefore(forged));
        assertThrows(ParseException.class, () -> tokens.parse(forged));
        assertEquals("member-1", tokens.verifiedBefore(token).getSubject());
        // Each request brings its token as a new string.
        assertEquals("member-1", tokens.verifiedBefore(new String(token)).getSubject());
    }

    @Test
    void noneAreRememberedWhenTheSizeIsZero() throws ParseException {
        VerifiedTokens tokens = tokens(0, null);
        String token = token(Duration.ofHours(1));

        assertNotSame(tokens.parse(token), tokens.parse(token));
    }

    private static void awaitRefused(VerifiedTokens tokens, String token) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThrows(ParseException.class, () -> tokens.parse(token)));
    }

    private static VerifiedTokens tokens(int size, Long tokenAge) {
        JWTAuthContextInfo context = new JWTAuthContextInfo(issuer.publicKey(), MemberTokens.ISSUER);
        context.setExpectedAudience(Set.of(MemberTokens.AUDIENCE));
        // Expired means expired: no grace, so that only the memory could answer an expired token.
        context.setExpGracePeriodSecs(0);
        context.setClockSkew(0);
        context.setTokenAge(tokenAge);
        return new VerifiedTokens(context, () -> size);
    }

    private static String token(Duration lifespan) {
        return issuer.token("member-1", lifespan);
    }
}
