package com.shop.orders.common;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Members.orderOf;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

@QuarkusTest
class HealthAndMetricsTest {

    @Test
    void readinessCoversDatabaseRedisAndRocketMq() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItems("rocketmq", "Redis connection health check",
                        "Reactive MySQL connections health check"));
    }

    @Test
    void metricsCountOrdersAndTimePlacement() {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = as(member).contentType(ContentType.JSON).body(orderOf(sku, 1)).post("/api/orders")
                .then().statusCode(201).extract().path("id");
        as(member).post("/api/orders/" + id + "/cancel").then().statusCode(200);

        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("orders_created_total"))
                .body(containsString("orders_cancelled_total{reason=\"MEMBER_CANCELLED\"}"))
                .body(containsString("orders_placement_seconds_count"))
                .body(containsString("expiry_watch_started_total"));
    }
}
