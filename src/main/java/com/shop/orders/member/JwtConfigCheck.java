package com.shop.orders.member;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.shop.orders.startup.StartupCheck;

import io.smallrye.jwt.util.KeyUtils;
import io.smallrye.jwt.util.ResourceUtils;

/**
 * Production verifies member tokens with the identity provider's public key. Without a readable key every
 * request would answer 401 (or 500) while the service looked ready: refuse to start instead.
 */
@ApplicationScoped
public class JwtConfigCheck implements StartupCheck {

    /** What application.properties answers for a setting the environment did not give. */
    private static final String NOT_GIVEN = "NONE";

    private final Optional<String> inlineKey;
    private final Optional<String> keyLocation;
    private final String issuer;
    private final Set<String> audiences;

    public JwtConfigCheck(@ConfigProperty(name = "mp.jwt.verify.publickey") Optional<String> inlineKey,
            @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> keyLocation,
            @ConfigProperty(name = "mp.jwt.verify.issuer", defaultValue = NOT_GIVEN) String issuer,
            @ConfigProperty(name = "mp.jwt.verify.audiences", defaultValue = NOT_GIVEN) Set<String> audiences) {
        this.inlineKey = inlineKey;
        this.keyLocation = keyLocation;
        this.issuer = issuer;
        this.audiences = audiences;
    }

    @Override
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (NOT_GIVEN.equals(issuer)) {
            problems.add("JWT_ISSUER (mp.jwt.verify.issuer) is not set");
        }
        if (audiences.contains(NOT_GIVEN)) {
            problems.add("JWT_AUDIENCE (mp.jwt.verify.audiences) is not set");
        }
        problems.addAll(publicKeyProblems());
        return problems;
    }

    private List<String> publicKeyProblems() {
        try {
            if (inlineKey.isPresent() && !inlineKey.get().isBlank()) {
                KeyUtils.decodePublicKey(inlineKey.get());
                return List.of();
            }
            if (keyLocation.isEmpty() || keyLocation.get().isBlank()) {
                return List.of("JWT_PUBLIC_KEY_LOCATION (mp.jwt.verify.publickey.location) is not set");
            }
            String content = ResourceUtils.readResource(keyLocation.get());
            if (content == null) {
                return List.of("JWT_PUBLIC_KEY_LOCATION (mp.jwt.verify.publickey.location): nothing at "
                        + keyLocation.get());
            }
            KeyUtils.decodePublicKey(content);
            return List.of();
        } catch (Exception e) {
            return List.of("JWT_PUBLIC_KEY_LOCATION (mp.jwt.verify.publickey.location): no readable public key at "
                    + keyLocation.orElse("(inline key)") + " (" + e.getClass().getSimpleName() + ")");
        }
    }
}
