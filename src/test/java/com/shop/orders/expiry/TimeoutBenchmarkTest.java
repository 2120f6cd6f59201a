package com.shop.orders.expiry;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.shop.orders.sandbox.SandboxFaults;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.Members;
import com.shop.orders.testsupport.Payments;
import com.shop.orders.testsupport.TestDb;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Many orders at once through the whole watch: placement latency, how late unpaid orders are
 * closed after their deadline, and how fast a payment with a lost notify is found. Runs reduced
 * (30 orders) in the suite; the full run is {@code ./mvnw verify -Dbenchmark.orders=1000
 * -Dtest=TimeoutBenchmarkTest}. Results go to stdout and target/benchmark-results.txt.
 */
@QuarkusTest
class TimeoutBenchmarkTest {

    private static final int ORDERS = Integer.getInteger("benchmark.orders", 30);
    private static final int CLIENTS = 20;
    /** One order in five is paid, with its notify lost. */
    private static final int PAY_EVERY = 5;
    private static final Duration SWEEP_GRACE = Duration.ofSeconds(12);

    private static final Pattern ORDER_ID = Pattern.compile("\"id\":(\\d+)");

    @Inject
    SandboxFaults faults;

    @Inject
    MeterRegistry registry;

    @TestHTTPResource("/")
    URI baseUri;

    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void resetFaults() {
        faults.reset();
    }

    @Test
    void unpaidOrdersCloseOnTimeAndLostNotifiesAreFound() throws Exception {
        long sku = TestDb.newSku(ORDERS, "1.00");
        faults.dropNotifies(true);
        List<String> members = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            members.add(Members.newMemberToken());
        }

        List<Long> placementMillis = Collections.synchronizedList(new ArrayList<>());
        Map<Integer, Instant> paidRequestedAt = new ConcurrentHashMap<>();
        long started = System.nanoTime();
        List<Callable<Integer>> placements = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            String member = members.get(i % CLIENTS);
            boolean pays = i % PAY_EVERY == 0;
            placements.add(() -> {
                long t0 = System.nanoTime();
                int id = placeOrder(member, sku);
                placementMillis.add((System.nanoTime() - t0) / 1_000_000);
                if (pays) {
                    Payments.pay(Payments.requestQr(member, id));
                    paidRequestedAt.put(id, Instant.now());
                }
                return id;
            });
        }
        List<Integer> ids = Concurrently.run(CLIENTS, placements);
        double placementSeconds = (System.nanoTime() - started) / 1e9;

        await().atMost(Duration.ofSeconds(60 + ORDERS / 20)).pollInterval(Duration.ofSeconds(1))
                .until(() -> TestDb.count("SELECT COUNT(*) FROM order_item i JOIN orders o ON o.id = i.order_id"
                        + " WHERE i.sku_id = ? AND o.status = 'PENDING_PAYMENT'", sku) == 0);

        List<Long> latenessMillis = new ArrayList<>();
        List<Long> detectionMillis = new ArrayList<>();
        for (int id : ids) {
            OrderTimes times = OrderTimes.of(id);
            if (paidRequestedAt.containsKey(id)) {
                assertEquals("PAID", TestDb.orderStatus(id));
                detectionMillis.add(Duration.between(paidRequestedAt.get(id),
                        times.paidAt().toInstant(ZoneOffset.UTC)).toMillis());
            } else {
                assertEquals("CLOSED", TestDb.orderStatus(id));
                latenessMillis.add(times.closedAfterDeadline().toMillis());
            }
        }
        TestDb.assertStockInvariant(sku, ORDERS);
        assertEquals(new TestDb.SkuRow(ORDERS - paidRequestedAt.size(), 0), TestDb.sku(sku));

        String report = String.format("""
                benchmark %s: %d orders from %d clients, %d paid with the notify lost
                placement: %.1f orders/s; latency ms p50=%d p95=%d p99=%d max=%d
                close after deadline ms: p50=%d p95=%d p99=%d max=%d (min %d)
                lost notify found after payment ms: p50=%d p95=%d max=%d
                check-backs: %s
                """, LocalDateTime.now(ZoneOffset.UTC), ORDERS, CLIENTS, paidRequestedAt.size(),
                ORDERS / placementSeconds, pct(placementMillis, 50), pct(placementMillis, 95),
                pct(placementMillis, 99), pct(placementMillis, 100), pct(latenessMillis, 50),
                pct(latenessMillis, 95), pct(latenessMillis, 99), pct(latenessMillis, 100), pct(latenessMillis, 0),
                pct(detectionMillis, 50), pct(detectionMillis, 95), pct(detectionMillis, 100),
                checkStats());
        System.out.println(report);
        write(report);

        assertTrue(pct(latenessMillis, 0) >= 0, "an order was closed before its deadline");
        assertTrue(pct(latenessMillis, 100) < SWEEP_GRACE.toMillis(), "an order was left to the sweep");
    }

    /** Plain JDK client: RestAssured's Groovy costs more CPU than the service it measures. */
    private int placeOrder(String member, long sku) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(baseUri.resolve("/api/orders"))
                .header("Authorization", "Bearer " + member).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"items\":[{\"skuId\":" + sku + ",\"quantity\":1}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, response.statusCode(), response.body());
        Matcher id = ORDER_ID.matcher(response.body());
        assertTrue(id.find(), response.body());
        return Integer.parseInt(id.group(1));
    }

    private String checkStats() {
        StringBuilder stats = new StringBuilder();
        for (Timer timer : registry.find("expiry.checks").timers()) {
            stats.append(String.format("%s=%d (mean %.1f ms, max %.1f ms) ", timer.getId().getTag("answer"), timer.count(),
                    timer.mean(TimeUnit.MILLISECONDS), timer.max(TimeUnit.MILLISECONDS)));
        }
        return stats.toString();
    }

    private static long pct(List<Long> values, int percentile) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private static void write(String report) throws IOException {
        Path file = Path.of("target", "benchmark-results.txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, report + System.lineSeparator(), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }
}
