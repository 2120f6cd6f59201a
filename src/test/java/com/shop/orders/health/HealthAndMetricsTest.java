package com.shop.orders.health;

import static com.shop.orders.testsupport.Management.management;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Members.orderOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

@QuarkusTest
class HealthAndMetricsTest {

    @Test
    void readinessIsTheDatabaseAndOptionalDependenciesAreReportedApart() {
        management().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        management().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("Reactive MySQL connections health check"))
                .body("checks.name", not(hasItem("Redis connection health check")));
        management().get("/q/health/group/dependencies").then().statusCode(200)
                .body("checks[0].name", equalTo("optional dependencies"))
                .body("checks[0].data.redis", equalTo("UP"))
                .body("checks[0].data.rocketmq", equalTo("UP"));
        assertEquals(1.0, Metrics.value("shop_dependency_up{dependency=\"redis\"}"));
    }

    @Test
    void metricsMoveWithOrders() {
        double placed = Metrics.value("orders_placed_total");
        double cancelled = Metrics.value("orders_closed_total{reason=\"MEMBER_CANCELLED\"}");
        double timed = Metrics.value("orders_placement_seconds_count");
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = as(member).contentType(ContentType.JSON).body(orderOf(sku, 1)).post("/api/orders")
                .then().statusCode(201).extract().path("id");
        as(member).post("/api/orders/" + id + "/cancel").then().statusCode(200);

        assertEquals(placed + 1, Metrics.value("orders_placed_total"));
        assertEquals(timed + 1, Metrics.value("orders_placement_seconds_count"));
        assertEquals(cancelled + 1, Metrics.value("orders_closed_total{reason=\"MEMBER_CANCELLED\"}"));
    }

    @Test
    void collectionsAndTheirTimeAreCountedByKind() {
        // The test JVM runs G1, whose full collections are its old generation's; System.gc() is one.
        String full = "gc_collections_total{collector=\"G1 Old Generation\",kind=\"full\"}";
        double before = Metrics.value(full);
        System.gc();

        assertTrue(Metrics.value(full) > before, "a full collection counted");
        assertTrue(Metrics.value("gc_pause_seconds_total{collector=\"G1 Old Generation\",kind=\"full\"}") > 0,
                "its time counted");
    }

    @Test
    void theSerialCollectorsCompleteScavengerIsFullAndItsScavengerYoung() {
        // The native executable's collector beans, by the names SubstrateVM gives them.
        assertEquals("full", CollectorMetrics.kind("complete scavenger"));
        assertEquals("young", CollectorMetrics.kind("young generation scavenger"));
        assertEquals("young", CollectorMetrics.kind("G1 Young Generation"));
        assertEquals("full", CollectorMetrics.kind("G1 Old Generation"));
    }
}
