package com.shop.orders.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.awaitility.Awaitility.await;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.MemberTokens;

import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.jwt.build.Jwt;

class VerifiedTokensTest {

    private static KeyPair keys;

    @BeforeAll
    static void keys() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        keys = generator.generateKeyPair();
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

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThrows(ParseException.class, () -> tokens.parse(token)));
    }

    @Test
    void aTokenPastItsAllowedAgeIsRefusedThoughItWasRemembered() throws ParseException {
        VerifiedTokens tokens = tokens(100, 2L);
        String token = token(Duration.ofHours(1));
        tokens.parse(token);

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThrows(ParseException.class, () -> tokens.parse(token)));
    }

    @Test
    void aRememberedTokenWithAnotherPayloadIsRefused() throws ParseException {
        VerifiedTokens tokens = tokens(100, null);
        String token = token(Duration.ofHours(1));
        tokens.parse(token);
        String[] parts = token.split("\\.");
        String otherPayload = Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1])).replace("member-1", "member-2").getBytes());

        assertThrows(ParseException.class, () -> tokens.parse(parts[0] + "." + otherPayload + "." + parts[2]));
    }

    @Test
    void noneAreRememberedWhenTheSizeIsZero() throws ParseException {
        VerifiedTokens tokens = tokens(0, null);
        String token = token(Duration.ofHours(1));

        assertNotSame(tokens.parse(token), tokens.parse(token));
    }

    private static VerifiedTokens tokens(int size, Long tokenAge) {
        JWTAuthContextInfo context = new JWTAuthContextInfo(keys.getPublic(), MemberTokens.ISSUER);
        context.setExpectedAudience(Set.of(MemberTokens.AUDIENCE));
        // Expired means expired: no grace, so that only the memory could answer an expired token.
        context.setExpGracePeriodSecs(0);
        context.setClockSkew(0);
        context.setTokenAge(tokenAge);
        return new VerifiedTokens(context, () -> size);
    }

    private static String token(Duration lifespan) {
        return Jwt.issuer(MemberTokens.ISSUER).audience(MemberTokens.AUDIENCE).subject("member-1")
                .groups(Set.of(Roles.MEMBER)).expiresIn(lifespan).sign(keys.getPrivate());
    }
}
