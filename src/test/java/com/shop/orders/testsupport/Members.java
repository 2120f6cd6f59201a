package com.shop.orders.testsupport;

import static io.restassured.RestAssured.given;

import java.util.Map;
import java.util.UUID;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/** Members and admins with tokens from the dev/test token endpoint. */
public final class Members {

    private Members() {
    }

    public static String newMemberToken() {
        return token("m-" + UUID.randomUUID().toString().substring(0, 12), false);
    }

    public static String adminToken() {
        return token("admin", true);
    }

    public static String token(String memberId, boolean admin) {
        return given().contentType(ContentType.JSON).body(Map.of("memberId", memberId, "admin", admin))
                .post("/dev/token").then().statusCode(200).extract().path("token");
    }

    public static RequestSpecification as(String token) {
        return given().auth().oauth2(token);
    }

    /** An order body with one line. */
    public static Map<String, Object> orderOf(long skuId, int quantity) {
        return Map.of("items", java.util.List.of(Map.of("skuId", skuId, "quantity", quantity)));
    }
}
