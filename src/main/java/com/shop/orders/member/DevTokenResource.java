package com.shop.orders.member;

import java.util.Set;

import jakarta.annotation.security.PermitAll;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.jwt.build.Jwt;

/**
 * Issues tokens signed with the key pair Quarkus generates in dev and test mode, with the issuer, audience
 * and lifespan of {@code smallrye.jwt.new-token.*}. Not part of a
 * production build: there, tokens come from the shop's identity provider.
 */
@Path("/dev/token")
@IfBuildProfile(anyOf = { "dev", "test" })
@PermitAll
public class DevTokenResource {

    public record TokenRequest(@Pattern(regexp = "[A-Za-z0-9_-]{1,64}") String memberId, boolean admin) {
    }

    public record TokenResponse(String token) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public TokenResponse issue(@Valid @NotNull TokenRequest request) {
        String subject = request.memberId() != null ? request.memberId() : "admin";
        Set<String> groups = request.admin() ? Set.of(Roles.ADMIN) : Set.of(Roles.MEMBER);
        String token = Jwt.subject(subject)
                .upn(subject)
                .groups(groups)
                .sign();
        return new TokenResponse(token);
    }
}
