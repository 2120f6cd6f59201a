package com.shop.orders.order;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.placeOrder;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import com.shop.orders.testsupport.Payments;
import com.shop.orders.testsupport.TestDb;

import io.restassured.path.json.JsonPath;
import io.quarkus.test.junit.QuarkusTest;

/**
 * An order's timeline from what the service recorded: each step of a paid order and of an expired one in the order
 * they happened, for admins only, bounded however much was recorded. (Trace ids are the packaged service's:
 * tracing is off in tests, PackagedServiceIT checks them against a real OTLP receiver.)
 */
@QuarkusTest
class OrderTimelineTest {

    @Test
    void aPaidOrderShowsItsPlacementQrCodeNotifyAndPaymentInOrder() {
        long sku = TestDb.newSku(5, "3.30");
        String member = newMemberToken();
        int orderId = placeOrder(member, sku, 1);
        pay(requestQr(member, orderId));
        TestDb.awaitOrderStatus(orderId, "PAID", Duration.ofSeconds(15));

        // Notes of Alipay calls and notifies are written within a second or so.
        JsonPath timeline = Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> timeline(orderId),
                t -> t.getList("entries.kind").contains("NOTIFY"));
        assertEquals(orderId, timeline.getInt("orderId"));
        assertEquals(Payments.orderNo(orderId), timeline.getString("orderNo"));
        assertEquals("PAID", timeline.getString("status"));
        List<String> kinds = timeline.getList("entries.kind");
        assertEquals("PLACED", kinds.get(0));
        assertTrue(kinds.indexOf("QR_OFFERED") < kinds.indexOf("PAID"), kinds.toString());
        assertEquals(List.of("alipay.trade.precreate"),
                timeline.getList("entries.findAll { it.kind == 'ALIPAY_CALL' }.detail"));
        assertEquals(List.of("success"), timeline.getList("entries.findAll { it.kind == 'ALIPAY_CALL' }.outcome"));
        assertEquals(List.of("paid_now"), timeline.getList("entries.findAll { it.kind == 'NOTIFY' }.outcome"));
        assertEquals(List.of("TRADE_SUCCESS"), timeline.getList("entries.findAll { it.kind == 'NOTIFY' }.detail"));
        assertEquals(List.of("NOTIFY"), timeline.getList("entries.findAll { it.kind == 'PAID' }.outcome"));
        List<Instant> times = timeline.<String> getList("entries.at").stream().map(Instant::parse).toList();
        assertEquals(times.stream().sorted().toList(), times, "oldest first");
        assertNull(timeline.get("traceId"), "tracing is off in tests");
        assertEquals(List.of(), timeline.getList("entries.findAll { it.traceId != null }"), "no trace id while tracing is off");
        assertEquals(0, timeline.getInt("omitted"));
    }

    @Test
    void anExpiredOrderShowsItsCheckBacksAndItsClose() {
        long sku = TestDb.newSku(5, "1.00");
        int orderId = placeOrder(newMemberToken(), sku, 1);
        TestDb.awaitOrderStatus(orderId, "CLOSED", Duration.ofSeconds(30));

        JsonPath timeline = Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> timeline(orderId),
                t -> t.getList("entries.outcome").contains("COMMIT_MESSAGE"));
        assertEquals("EXPIRED", timeline.getString("closeReason"));
        assertEquals(List.of("EXPIRED"), timeline.getList("entries.findAll { it.kind == 'CLOSED' }.outcome"));
        assertEquals(List.of("by expiry message"), timeline.getList("entries.findAll { it.kind == 'CLOSED' }.detail"));
        assertEquals("check 1: pay deadline ahead", timeline.getString("entries.find { it.kind == 'CHECK_BACK' }.detail"));
        // The first check-back and the one at the deadline, a few seconds apart, and the broker's count by then.
        assertTrue(timeline.getInt("checkBacks.count") >= 2, timeline.prettify());
        assertTrue(Instant.parse(timeline.getString("checkBacks.first"))
                .isBefore(Instant.parse(timeline.getString("checkBacks.last"))), timeline.prettify());
    }

    @Test
    void aLongTimelineShowsItsFirstAndLastEntriesAndHowManyAreLeftOut() {
        int orderId = placeOrder(newMemberToken(), TestDb.newSku(5, "1.00"), 1);
        String orderNo = Payments.orderNo(orderId);
        for (int i = 0; i < 260; i++) {
            TestDb.update("INSERT INTO order_event (order_no, at, kind, outcome, detail) "
                    + "VALUES (?, UTC_TIMESTAMP(6), 'NOTIFY', 'rejected: amount', ?)", orderNo, "repeat " + i);
        }
        JsonPath timeline = timeline(orderId);
        int shown = timeline.getList("entries").size();
        int omitted = timeline.getInt("omitted");
        assertTrue(shown <= OrderTimeline.MAX_ENTRIES + 2, "entries " + shown);
        assertTrue(omitted >= 60, "omitted " + omitted);
        List<String> details = timeline.getList("entries.detail");
        assertTrue(details.contains("repeat 0") && details.contains("repeat 259") && !details.contains("repeat 130"),
                details.toString());
    }

    @Test
    void onlyAdminsSeeATimelineAndAnUnknownOrderIs404() {
        int orderId = placeOrder(newMemberToken(), TestDb.newSku(5, "1.00"), 1);
        given().get("/api/admin/orders/" + orderId + "/timeline").then().statusCode(401)
                .contentType("application/problem+json");
        as(newMemberToken()).get("/api/admin/orders/" + orderId + "/timeline").then().statusCode(403)
                .contentType("application/problem+json");
        as(adminToken()).get("/api/admin/orders/999999999/timeline").then().statusCode(404)
                .contentType("application/problem+json").body("status", equalTo(404));
    }

    private static JsonPath timeline(int orderId) {
        return as(adminToken()).get("/api/admin/orders/" + orderId + "/timeline").then().statusCode(200)
                .extract().jsonPath();
    }
}
