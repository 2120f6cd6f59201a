package com.shop.orders.order;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Members.orderOf;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

@QuarkusTest
class OrderConcurrencyTest {

    @Test
    void twoHundredConcurrentOrdersForFiftyUnitsNeverOversell() throws Exception {
        long sku = TestDb.newSku(50, "9.90");
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            tokens.add(newMemberToken());
        }
        List<Callable<Integer>> requests = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String token = tokens.get(i % tokens.size());
            requests.add(() -> as(token).contentType(ContentType.JSON).body(orderOf(sku, 1))
                    .post("/api/orders").then().extract().statusCode());
        }
        Map<Integer, Long> byStatus = Concurrently.run(50, requests).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertEquals(Map.of(201, 50L, 409, 150L), byStatus);
        assertEquals(new TestDb.SkuRow(50, 50), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 50);
    }
}
