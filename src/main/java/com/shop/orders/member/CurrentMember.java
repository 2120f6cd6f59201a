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
        String subject = token.getSubject();
        if (subject == null || subject.isBlank()) {
            throw new UnauthorizedException("Token has no subject");
        }
        return subject;
    }
}
