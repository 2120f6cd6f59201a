package com.shop.orders.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;

import io.smallrye.jwt.build.Jwt;

/**
 * The shop's identity provider in miniature: an RSA key pair made at start, the public half as a PEM file the
 * services verify with ({@code JWT_PUBLIC_KEY_LOCATION}), member tokens signed with the private half.
 */
public final class MemberTokens {

    public static final String ISSUER = "https://shop.example/auth";
    public static final String AUDIENCE = "order-service";

    private final PrivateKey signingKey;
    private final PublicKey publicKey;
    private final Path publicKeyFile;

    private MemberTokens(PrivateKey signingKey, PublicKey publicKey, Path publicKeyFile) {
        this.signingKey = signingKey;
        this.publicKey = publicKey;
        this.publicKeyFile = publicKeyFile;
    }

    public static MemberTokens generate(Path dir) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            Files.createDirectories(dir);
            Path file = dir.resolve("jwt-public-key.pem");
            Files.writeString(file, pem(pair.getPublic()));
            return new MemberTokens(pair.getPrivate(), pair.getPublic(), file.toAbsolutePath());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path publicKeyFile() {
        return publicKeyFile;
    }

    /** The public half, for a parser built in the test itself. */
    public PublicKey publicKey() {
        return publicKey;
    }

    /** The public half as PEM text, for a service configured with the key itself. */
    public String publicKeyPem() {
        return pem(publicKey);
    }

    private static String pem(PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(key.getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }

    public String issuer() {
        return ISSUER;
    }

    public String audience() {
        return AUDIENCE;
    }

    /** A member's token: subject and upn the member id, group "member", valid one hour, issuer and audience set. */
    public String token(String memberId) {
        return token(memberId, Duration.ofHours(1));
    }

    /** A member's token valid for {@code lifespan}. */
    public String token(String memberId, Duration lifespan) {
        return Jwt.issuer(ISSUER).audience(AUDIENCE).subject(memberId).upn(memberId).groups(Set.of("member"))
                .expiresIn(lifespan).sign(signingKey);
    }

    /** An admin token (group "admin"), e.g. for PUT /api/admin/skus/{id}/stock. */
    public String adminToken(String subject) {
        return Jwt.issuer(ISSUER).audience(AUDIENCE).subject(subject).upn(subject).groups(Set.of("admin"))
                .expiresIn(Duration.ofHours(1)).sign(signingKey);
    }
}
