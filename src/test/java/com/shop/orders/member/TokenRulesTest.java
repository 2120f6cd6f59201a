package com.shop.orders.member;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;

/**
 * Only tokens from the configured issuer, for this service's audience, and not valid (or issued) for
 * longer than the configured maximum age are accepted. Signed with the test key pair, like /dev/token.
 */
@QuarkusTest
class TokenRulesTest {

    @Inject
    JWTParser parser;

    @Test
    void theSecurityLayerVerifiesThroughTheMemoryOfVerifiedTokens() {
        assertInstanceOf(VerifiedTokens.class, parser);
        get(member()).then().statusCode(200);
    }

    @Test
    void aProperTokenIsAccepted() {
        get(member()).then().statusCode(200);
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() {
        get(member().audience("another-service")).then().statusCode(401);
    }

    @Test
    void aTokenFromAnotherIssuerIsRefused() {
        get(member().issuer("https://evil.example/auth")).then().statusCode(401);
    }

    @Test
    void aTokenValidForTenYearsIsRefused() {
        get(member().expiresIn(Duration.ofDays(3650))).then().statusCode(401);
    }

    @Test
    void aTokenIssuedLongAgoIsRefused() {
        Instant issued = Instant.now().minus(Duration.ofHours(2));
        get(member().issuedAt(issued).expiresAt(issued.plus(Duration.ofHours(3)))).then().statusCode(401);
    }

    private static JwtClaimsBuilder member() {
        return Jwt.issuer("https://shop.example/auth").audience("order-service").subject("m-rules")
                .groups(Set.of(Roles.MEMBER)).expiresIn(Duration.ofMinutes(10));
    }

    private static io.restassured.response.Response get(JwtClaimsBuilder claims) {
        return given().auth().oauth2(claims.sign()).get("/api/orders");
    }
}
