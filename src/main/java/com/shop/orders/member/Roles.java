package com.shop.orders.member;

/** Groups carried in the bearer token. */
public final class Roles {

    public static final String MEMBER = "member";
    public static final String ADMIN = "admin";

    private Roles() {
    }
}
