package com.shop.orders.live;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.orderNo;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.order.CloseReason;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.order.OrderTransition;
import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.EventStream;
import com.shop.orders.testsupport.EventStream.Event;
import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The live status stream against the real flow: sandbox payments, member cancels, expiry by the broker's
 * check-backs (pay timeout 6 s). Heartbeats every 1 s and database rechecks every 3 s in tests.
 */
@QuarkusTest
class OrderEventsTest {

    private static final Duration SOON = Duration.ofSeconds(5);
    private static final Duration END = Duration.ofSeconds(2);
    /** Pay timeout 6 s, then the broker's check-back within a few seconds (see ExpiryTest). */
    private static final Duration EXPIRY = Duration.ofSeconds(15);

    @Inject
    ObjectMapper json;

    @Inject
    RedisDataSource redis;

    @Test
    void streamStartsWithTheOrderAsItIsAndEndsWhenItIsPaid() throws Exception {
        long sku = TestDb.newSku(5, "3.20");
        String member = newMemberToken();
        int id = placeOrder(member, sku, 1);

        try (EventStream stream = EventStream.open(events(id), member)) {
            assertEquals(200, stream.status());
            assertTrue(stream.contentType().startsWith("text/event-stream"), stream.contentType());
            Map<String, Object> first = status(stream.next(SOON));
            assertEquals("PENDING_PAYMENT", first.get("status"));
            assertEquals(id, first.get("orderId"));
            assertEquals(as(member).get("/api/orders/" + id).then().extract().path("payDeadline"),
                    first.get("payDeadline"));

            pay(requestQr(member, id));

            Map<String, Object> paid = status(stream.next(SOON));
            assertEquals("PAID", paid.get("status"));
            assertTrue(stream.endsWithin(END), "the stream ends with the decision");
            assertEquals(List.of(), stream.pending());
        }
    }

    @Test
    void memberCancelClosesTheStream() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = placeOrder(member, sku, 1);

        try (EventStream stream = EventStream.open(events(id), member)) {
            assertEquals("PENDING_PAYMENT", status(stream.next(SOON)).get("status"));
            as(member).post("/api/orders/" + id + "/cancel").then().statusCode(200);

            Map<String, Object> closed = status(stream.next(SOON));
            assertEquals("CLOSED", closed.get("status"));
            assertEquals("MEMBER_CANCELLED", closed.get("closeReason"));
            assertTrue(stream.endsWithin(END));
        }
    }

    @Test
    void expiryClosesTheStream() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = placeOrder(member, sku, 1);
        requestQr(member, id);

        try (EventStream stream = EventStream.open(events(id), member)) {
            assertEquals("PENDING_PAYMENT", status(stream.next(SOON)).get("status"));

            Map<String, Object> closed = status(stream.next(EXPIRY));
            assertEquals("CLOSED", closed.get("status"));
            assertEquals("EXPIRED", closed.get("closeReason"));
            assertTrue(stream.endsWithin(END));
        }
    }

    @Test
    void anotherMembersOrderIsNotFoundAndATokenIsRequired() {
        long sku = TestDb.newSku(5, "1.00");
        String owner = newMemberToken();
        int id = placeOrder(owner, sku, 1);

        as(newMemberToken()).accept("text/event-stream").get(events(id)).then().statusCode(404)
                .contentType("application/problem+json").body("status", equalTo(404));
        as(owner).accept("text/event-stream").get("/api/orders/" + (id + 1_000_000) + "/events").then()
                .statusCode(404).contentType("application/problem+json");
        as(owner).accept("text/event-stream").get("/api/orders/abc/events").then()
                .statusCode(404).contentType("application/problem+json");
        given().accept("text/event-stream").get(events(id)).then().statusCode(401)
                .contentType("application/problem+json");
        as(adminToken()).accept("text/event-stream").get(events(id)).then()
                .statusCode(403).contentType("application/problem+json");
    }

    @Test
    void aDecidedOrderGetsItsStatusAndTheEnd() {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = placeOrder(member, sku, 1);
        as(member).post("/api/orders/" + id + "/cancel").then().statusCode(200);

        // The whole body arrives: the stream has ended by itself.
        String body = as(member).accept("text/event-stream").get(events(id)).then().statusCode(200)
                .extract().asString();
        assertEquals(1, body.lines().filter(line -> line.matches("event: ?status")).count(), body);
        assertTrue(body.lines().allMatch(line -> line.isEmpty() || line.matches("(event|data): ?.*")), body);
        assertTrue(body.contains("\"status\":\"CLOSED\""), body);
    }

    @Test
    void heartbeatsKeepAWaitingStreamAlive() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = placeOrder(member, sku, 1);

        try (EventStream stream = EventStream.open(events(id), member)) {
            stream.next(SOON);
            assertEquals(List.of(), stream.comments(), "the order's status comes first, the first heartbeat a period later");
            await().atMost(Duration.ofSeconds(4))
                    .until(() -> stream.comments().stream().filter("heartbeat"::equals).count() >= 2);
            assertEquals(List.of(), stream.pending(), "heartbeats are comments, not events");
        }
        as(member).post("/api/orders/" + id + "/cancel").then().statusCode(200);
    }

    /** Another instance closed the order: its announcement arrives over Redis, long before any recheck. */
    @Test
    void aTransitionOnAnotherInstanceReachesTheStream() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = placeOrder(member, sku, 1);

        try (EventStream stream = EventStream.open(events(id), member)) {
            assertEquals("PENDING_PAYMENT", status(stream.next(SOON)).get("status"));
            String memberId = TestDb.scalar("SELECT member_id FROM orders WHERE id = ?", id);
            AnotherInstance.announces(redis, json, new OrderTransition(id, orderNo(id), memberId,
                    OrderStatus.CLOSED, CloseReason.EXPIRED, Instant.now(), List.of(sku)));

            Map<String, Object> closed = status(stream.next(Duration.ofSeconds(2)));
            assertEquals("EXPIRED", closed.get("closeReason"));
            assertTrue(stream.endsWithin(END));
        } finally {
            AnotherInstance.closes(id, "EXPIRED");
            TestDb.assertStockInvariant(sku, 5);
        }
    }

    /** Announcements are best effort: a transition nobody announced is found by the periodic read. */
    @Test
    void aTransitionThatWasNotAnnouncedIsFoundByTheRecheck() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        int id = placeOrder(member, sku, 1);

        try (EventStream stream = EventStream.open(events(id), member)) {
            assertEquals("PENDING_PAYMENT", status(stream.next(SOON)).get("status"));
            AnotherInstance.closes(id, "MEMBER_CANCELLED");
            TestDb.assertStockInvariant(sku, 5);

            Map<String, Object> closed = status(stream.next(Duration.ofSeconds(3 + 2)));
            assertEquals("CLOSED", closed.get("status"));
            assertTrue(stream.endsWithin(END));
        }
    }

    /**
     * 200 open streams on the event loop (10 members, each at the cap of 20: 4 orders with 5 streams): no thread
     * each; the cancels reach them all and end them. Opened side by side, as the 6 s pay window of the tests would
     * otherwise run out while they open (an order closed by expiry meanwhile ends its streams closed all the same).
     */
    @Test
    void manyOpenStreamsShareTheEventLoop() throws Exception {
        long sku = TestDb.newSku(40, "1.00");
        Map<Integer, String> orders = new LinkedHashMap<>();
        for (int m = 0; m < 10; m++) {
            String member = newMemberToken();
            for (int o = 0; o < 4; o++) {
                orders.put(placeOrder(member, sku, 1), member);
            }
        }
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();

        List<EventStream> streams = new ArrayList<>();
        ExecutorService openers = Executors.newFixedThreadPool(8);
        try {
            List<Future<EventStream>> opening = new ArrayList<>();
            orders.forEach((id, member) -> {
                for (int i = 0; i < 5; i++) {
                    opening.add(openers.submit(() -> EventStream.open(events(id), member)));
                }
            });
            for (Future<EventStream> stream : opening) {
                streams.add(stream.get());
            }
            int threadsWithStreams = ManagementFactory.getThreadMXBean().getThreadCount();
            for (EventStream stream : streams) {
                assertEquals(200, stream.status());
            }
            assertTrue(threadsWithStreams - threadsBefore < 30,
                    "threads before " + threadsBefore + ", with 200 streams " + threadsWithStreams);

            // 409: closed by expiry meanwhile.
            orders.forEach((id, member) -> as(member).post("/api/orders/" + id + "/cancel").then()
                    .statusCode(anyOf(equalTo(200), equalTo(409))));
            for (EventStream stream : streams) {
                Map<String, Object> last = status(stream.next(SOON));
                while (!"CLOSED".equals(last.get("status"))) {
                    last = status(stream.next(SOON));
                }
                assertTrue(stream.endsWithin(END));
            }
        } finally {
            openers.shutdownNow();
            streams.forEach(EventStream::close);
        }
    }

    /**
     * 50 streams asked by one member, 10 on each of 5 orders: 5 per order and 20 for the member are let in, the
     * others refused with 429 and Retry-After; the streams let in still get their order's transition, a closed
     * order's streams end, and the slots they held are free again.
     */
    @Test
    void streamsAreCappedPerOrderAndPerMember() throws Exception {
        long sku = TestDb.newSku(5, "1.00");
        String member = newMemberToken();
        List<Integer> orders = new ArrayList<>();
        for (int o = 0; o < 5; o++) {
            orders.add(placeOrder(member, sku, 1));
        }
        double refusedByOrder = Metrics.value("live_streams_refused_total{cap=\"order\"}");
        double refusedByMember = Metrics.value("live_streams_refused_total{cap=\"member\"}");

        Map<Integer, List<EventStream>> open = new LinkedHashMap<>();
        List<EventStream> all = new ArrayList<>();
        int refused = 0;
        try {
            for (int id : orders) {
                for (int i = 0; i < 10; i++) {
                    EventStream stream = EventStream.open(events(id), member);
                    all.add(stream);
                    if (stream.status() == 200) {
                        open.computeIfAbsent(id, ignored -> new ArrayList<>()).add(stream);
                    } else {
                        assertEquals(429, stream.status());
                        assertTrue(stream.contentType().startsWith("application/problem+json"), stream.contentType());
                        assertEquals("30", stream.header("Retry-After"));
                        refused++;
                    }
                }
            }
            assertEquals(List.of(5, 5, 5, 5), open.values().stream().map(List::size).toList(),
                    "5 on each of the first four orders, then the member's 20 are open");
            assertEquals(30, refused);
            assertEquals(refusedByOrder + 15, Metrics.value("live_streams_refused_total{cap=\"order\"}"));
            assertEquals(refusedByMember + 15, Metrics.value("live_streams_refused_total{cap=\"member\"}"));
            for (List<EventStream> streams : open.values()) {
                for (EventStream stream : streams) {
                    assertEquals("PENDING_PAYMENT", status(stream.next(SOON)).get("status"));
                }
            }

            int first = orders.get(0);
            as(member).post("/api/orders/" + first + "/cancel").then().statusCode(200);
            for (EventStream stream : open.get(first)) {
                assertEquals("CLOSED", status(stream.next(SOON)).get("status"));
                assertTrue(stream.endsWithin(END), "a closed order's streams end");
            }
            for (int id : orders.subList(1, 4)) {
                for (EventStream stream : open.get(id)) {
                    assertEquals(List.of(), stream.pending(), "the other orders' streams wait on");
                }
            }
            // The closed order's five slots are the member's again: the fifth order gets its streams now.
            int fifth = orders.get(4);
            await().atMost(SOON).until(() -> {
                EventStream again = EventStream.open(events(fifth), member);
                all.add(again);
                return again.status() == 200;
            });
        } finally {
            all.forEach(EventStream::close);
        }
    }

    private static String events(int orderId) {
        return "/api/orders/" + orderId + "/events";
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> status(Event event) throws JsonProcessingException {
        assertEquals("status", event.name());
        return json.readValue(event.data(), Map.class);
    }

}
