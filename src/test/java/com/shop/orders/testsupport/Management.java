package com.shop.orders.testsupport;

import static io.restassured.RestAssured.given;

import org.eclipse.microprofile.config.ConfigProvider;

import io.restassured.specification.RequestSpecification;

/** Requests to the management interface (health, metrics), which listens on a port of its own. */
public final class Management {

    private Management() {
    }

    public static RequestSpecification management() {
        return given().port(ConfigProvider.getConfig().getOptionalValue("quarkus.management.test-port", Integer.class)
                .orElse(9001));
    }
}
