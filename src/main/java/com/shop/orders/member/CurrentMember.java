package com.shop.orders.member;

import jakarta.enterprise.context.RequestScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.UnauthorizedException;

/** The member a request acts for: the subject of its verified bearer token. */
@RequestScoped
public class CurrentMember {

    private final JsonWebToken token;

    public CurrentMember(JsonWebToken token) {
        this.token = token;
    }

    public String id() {
        if (!hasSubject(token)) {
            throw new UnauthorizedException("Token has no subject");
        }
        return token.getSubject();
    }

    /** Whether a verified token names a member: the role and a subject to act for. */
    public static boolean namesMember(JsonWebToken token) {
        return hasSubject(token) && token.getGroups().contains(Roles.MEMBER);
    }

    private static boolean hasSubject(JsonWebToken token) {
        return token.getSubject() != null && !token.getSubject().isBlank();
    }
}
