package com.shop.orders;

import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.shop.orders.testsupport.LogCapture;
import com.shop.orders.testsupport.Members;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Malformed, oversized, wrongly typed and hostile input on every public endpoint: each gets a clear 4xx
 * (problem+json, or "failure" for Alipay's notify), changes nothing, and leaves no stack trace or ERROR in
 * the log.
 */
@QuarkusTest
class BadInputTest {

    private static final String JSON = "application/json";
    private static final String FORM = "application/x-www-form-urlencoded; charset=utf-8";
    private static long sku;
    private static String member;
    private static String admin;
    private static LogCapture log;

    /** Who sends the request. */
    enum Caller { NOBODY, MEMBER, ADMIN }

    @BeforeAll
    static void capture() {
        log = LogCapture.install();
    }

    @AfterAll
    static void release() {
        log.close();
    }

    // Once for the class, at its first test (the application serves requests only from then on): a refused request
    // leaves the SKU and the member as they were, and each row checks that.
    @BeforeEach
    void setUp() {
        if (sku == 0) {
            sku = TestDb.newSku(5, "2.00");
            member = newMemberToken();
            admin = Members.adminToken();
        }
        log.clear();
    }

    static Stream<Arguments> requests() {
        String many = manyLines();
        String pad = "x".repeat(70_000);
        return Stream.of(
                // Placing orders
                row("malformed JSON", Caller.MEMBER, "POST", "/api/orders", JSON, "{\"items\": [", 400),
                row("array instead of object", Caller.MEMBER, "POST", "/api/orders", JSON, "[]", 400),
                row("items of the wrong type", Caller.MEMBER, "POST", "/api/orders", JSON, "{\"items\": \"many\"}", 400),
                row("no items", Caller.MEMBER, "POST", "/api/orders", JSON, "{\"items\": []}", 400),
                row("missing items", Caller.MEMBER, "POST", "/api/orders", JSON, "{}", 400),
                row("null body", Caller.MEMBER, "POST", "/api/orders", JSON, "null", 400),
                row("empty body", Caller.MEMBER, "POST", "/api/orders", JSON, "", 400),
                row("fractional quantity", Caller.MEMBER, "POST", "/api/orders", JSON, line("{sku}", "1.9"), 400),
                row("quantity as a string", Caller.MEMBER, "POST", "/api/orders", JSON, line("{sku}", "\"1\""), 400),
                row("huge quantity", Caller.MEMBER, "POST", "/api/orders", JSON, line("{sku}", "99999999999999999999"), 400),
                row("quantity zero", Caller.MEMBER, "POST", "/api/orders", JSON, line("{sku}", "0"), 400),
                row("quantity above the limit", Caller.MEMBER, "POST", "/api/orders", JSON, line("{sku}", "1000"), 400),
                row("negative SKU", Caller.MEMBER, "POST", "/api/orders", JSON, line("-1", "1"), 400),
                row("SKU as text", Caller.MEMBER, "POST", "/api/orders", JSON, line("\"abc\"", "1"), 400),
                row("missing SKU", Caller.MEMBER, "POST", "/api/orders", JSON, "{\"items\":[{\"quantity\":1}]}", 400),
                row("duplicate SKU lines", Caller.MEMBER, "POST", "/api/orders", JSON,
                        "{\"items\":[{\"skuId\":{sku},\"quantity\":1},{\"skuId\":{sku},\"quantity\":1}]}", 400),
                row("too many lines", Caller.MEMBER, "POST", "/api/orders", JSON, many, 400),
                row("unknown SKU", Caller.MEMBER, "POST", "/api/orders", JSON, line("987654321", "1"), 422),
                row("not enough stock", Caller.MEMBER, "POST", "/api/orders", JSON, line("{sku}", "6"), 409),
                row("oversized body", Caller.MEMBER, "POST", "/api/orders", JSON,
                        "{\"items\":[{\"skuId\":{sku},\"quantity\":1}],\"pad\":\"" + pad + "\"}", 413),
                row("not JSON", Caller.MEMBER, "POST", "/api/orders", "text/plain", line("{sku}", "1"), 415),
                row("script in a field", Caller.MEMBER, "POST", "/api/orders", JSON,
                        "{\"items\":[{\"skuId\":\"<script>alert(1)</script>\",\"quantity\":1}]}", 400),
                row("no token", Caller.NOBODY, "POST", "/api/orders", JSON, line("{sku}", "1"), 401),
                // Reading orders
                row("unknown status", Caller.MEMBER, "GET", "/api/orders?status=LOST", null, null, 400),
                row("page size too big", Caller.MEMBER, "GET", "/api/orders?size=1000", null, null, 400),
                row("negative page", Caller.MEMBER, "GET", "/api/orders?page=-1", null, null, 400),
                row("order id not a number", Caller.MEMBER, "GET", "/api/orders/abc", null, null, 404),
                row("order id too long", Caller.MEMBER, "GET", "/api/orders/99999999999999999999", null, null, 404),
                row("unknown order", Caller.MEMBER, "GET", "/api/orders/424242424", null, null, 404),
                row("cancel of an unknown order", Caller.MEMBER, "POST", "/api/orders/424242424/cancel", null, null, 404),
                // Payment
                row("payment of an unknown order", Caller.MEMBER, "POST", "/api/orders/424242424/payment", null, null, 404),
                row("QR image of an unknown order", Caller.MEMBER, "GET", "/api/orders/424242424/payment/qr.png", null,
                        null, 404),
                row("QR link expiring at the end of time", Caller.NOBODY, "GET",
                        "/api/payments/qr-images/1?expires=9223372036854775807&sig=abc", null, null, 404),
                row("QR link with a negative expiry", Caller.NOBODY, "GET",
                        "/api/payments/qr-images/1?expires=-9223372036854775808&sig=abc", null, null, 404),
                row("QR link without signature", Caller.NOBODY, "GET", "/api/payments/qr-images/1?expires=1", null, null, 404),
                // Alipay's notify (unauthenticated)
                row("notify of percent signs", Caller.NOBODY, "POST", "/api/payments/alipay/notify", FORM, "%%%", 200),
                row("notify with a broken escape", Caller.NOBODY, "POST", "/api/payments/alipay/notify", FORM, "a=%zz", 200),
                row("notify of empty names", Caller.NOBODY, "POST", "/api/payments/alipay/notify", FORM, "=&=", 200),
                row("notify cut in an escape", Caller.NOBODY, "POST", "/api/payments/alipay/notify", FORM,
                        "out_trade_no=%E9%", 200),
                row("notify with a forged order number", Caller.NOBODY, "POST", "/api/payments/alipay/notify", FORM,
                        "out_trade_no=1%0A2026-01-01+ERROR+forged&trade_status=TRADE_SUCCESS&sign=x", 200),
                row("empty notify", Caller.NOBODY, "POST", "/api/payments/alipay/notify", FORM, "", 200),
                row("oversized notify", Caller.NOBODY, "POST", "/api/payments/alipay/notify", FORM, "a=" + pad, 413),
                row("notify as JSON", Caller.NOBODY, "POST", "/api/payments/alipay/notify", JSON, "{}", 415),
                // Catalog and administration
                row("SKU id not a number", Caller.NOBODY, "GET", "/api/skus/abc", null, null, 404),
                row("unknown SKU page", Caller.NOBODY, "GET", "/api/skus/424242424", null, null, 404),
                row("negative stock", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/stock", JSON, "{\"stock\": -1}", 400),
                row("stock as a string", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/stock", JSON, "{\"stock\": \"10\"}", 400),
                row("fractional stock", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/stock", JSON, "{\"stock\": 1.5}", 400),
                row("missing stock", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/stock", JSON, "{}", 400),
                row("stock of an unknown SKU", Caller.ADMIN, "PUT", "/api/admin/skus/424242424/stock", JSON,
                        "{\"stock\": 1}", 404),
                row("restock by a member", Caller.MEMBER, "PUT", "/api/admin/skus/{sku}/stock", JSON, "{\"stock\": 1}", 403),
                row("restock without a token", Caller.NOBODY, "PUT", "/api/admin/skus/{sku}/stock", JSON, "{\"stock\": 1}", 401),
                row("negative limit", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/limit", JSON, "{\"perMemberLimit\": -1}", 400),
                row("zero limit", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/limit", JSON, "{\"perMemberLimit\": 0}", 400),
                row("fractional limit", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/limit", JSON, "{\"perMemberLimit\": 1.5}", 400),
                row("limit as a string", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/limit", JSON, "{\"perMemberLimit\": \"1\"}", 400),
                row("huge limit", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/limit", JSON,
                        "{\"perMemberLimit\": 99999999999}", 400),
                row("missing limit", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/limit", JSON, "{}", 400),
                row("limit of an unknown SKU", Caller.ADMIN, "PUT", "/api/admin/skus/424242424/limit", JSON,
                        "{\"perMemberLimit\": 1}", 404),
                row("lifting the limit of an unknown SKU", Caller.ADMIN, "DELETE", "/api/admin/skus/424242424/limit",
                        null, null, 404),
                row("limit by a member", Caller.MEMBER, "PUT", "/api/admin/skus/{sku}/limit", JSON, "{\"perMemberLimit\": 1}", 403),
                row("limit lifted by a member", Caller.MEMBER, "DELETE", "/api/admin/skus/{sku}/limit", null, null, 403),
                row("zero buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": 0}", 400),
                row("negative buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": -1}", 400),
                row("65 buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": 65}", 400),
                row("huge buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON,
                        "{\"buckets\": 99999999999}", 400),
                row("fractional buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": 1.5}", 400),
                row("buckets as a string", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": \"8\"}", 400),
                row("null buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": null}", 400),
                row("missing buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{}", 400),
                row("malformed buckets", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": ", 400),
                row("buckets not JSON", Caller.ADMIN, "PUT", "/api/admin/skus/{sku}/buckets", "text/plain", "8", 415),
                row("buckets of an unknown SKU", Caller.ADMIN, "PUT", "/api/admin/skus/424242424/buckets", JSON,
                        "{\"buckets\": 8}", 404),
                row("buckets by a member", Caller.MEMBER, "PUT", "/api/admin/skus/{sku}/buckets", JSON, "{\"buckets\": 8}", 403),
                row("buckets without a token", Caller.NOBODY, "PUT", "/api/admin/skus/{sku}/buckets", JSON,
                        "{\"buckets\": 8}", 401));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void isRefusedClearlyAndChangesNothing(String name, Caller caller, String method, String path, String contentType,
            String body, int status) {
        State before = State.now(sku);
        RequestSpecification request = switch (caller) {
            case NOBODY -> given();
            case MEMBER -> as(member);
            case ADMIN -> as(admin);
        };
        if (contentType != null) {
            request.contentType(contentType);
        }
        if (body != null) {
            request.body(body.replace("{sku}", Long.toString(sku)));
        }
        Response response = request.request(method, path.replace("{sku}", Long.toString(sku)));

        response.then().statusCode(status).body(not(containsString("\tat ")));
        if (path.startsWith("/api/payments/alipay/notify") && status == 200) {
            assertEquals("failure", response.asString());
        } else {
            response.then().contentType("application/problem+json")
                    .body("status", equalTo(status))
                    .body("title", notNullValue())
                    .body("$", not(hasKey("extensions")));
        }
        assertEquals(before, State.now(sku), "the request changed something");
        assertEquals(List.of(), log.problems(), "logged as a problem");
    }

    @Test
    void aWronglyTypedFieldIsNamed() {
        as(member).contentType(JSON).body(line(Long.toString(sku), "1.9")).post("/api/orders")
                .then().statusCode(400)
                .body("violations[0].field", equalTo("items[0].quantity"))
                .body("violations[0].message", equalTo("must be an integer"));
    }

    @Test
    void invalidTokensAreRefused() {
        given().auth().oauth2("not-a-jwt").get("/api/orders").then().statusCode(401)
                .contentType("application/problem+json").header("WWW-Authenticate", "Bearer");
    }

    @Test
    void adminRestocksButNotBelowReservations() {
        long restock = TestDb.newSku(3, "1.00");
        as(newMemberToken()).contentType(JSON).body(Members.orderOf(restock, 2)).post("/api/orders").then().statusCode(201);
        as(admin).contentType(JSON).body("{\"stock\": 1}").put("/api/admin/skus/" + restock + "/stock")
                .then().statusCode(409).contentType("application/problem+json");
        assertEquals(new TestDb.SkuRow(3, 2), TestDb.sku(restock));
        as(admin).contentType(JSON).body("{\"stock\": 30}").put("/api/admin/skus/" + restock + "/stock")
                .then().statusCode(200).body("stock", equalTo(30)).body("available", equalTo(28));
        assertEquals(List.of(), log.problems());
    }

    /** Row counts and the test SKU's stock and layout: what a refused request must leave as it was. */
    private record State(long orders, long items, long payments, long events, long allowances, int stock,
                         int lockStock, Integer perMemberLimit, int buckets, int version, int layout, long bucketRows) {
        static State now(long skuId) {
            return TestDb.query("SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM order_item), "
                    + "(SELECT COUNT(*) FROM payment), (SELECT COUNT(*) FROM outbox_event), "
                    + "(SELECT COALESCE(SUM(used), 0) FROM purchase_allowance), stock, lock_stock, per_member_limit, "
                    + "buckets, version, layout, (SELECT COUNT(*) FROM sku_bucket b WHERE b.sku_id = sku.id) "
                    + "FROM sku WHERE id = ?", rs -> new State(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                            rs.getLong(5), rs.getInt(6), rs.getInt(7), (Integer) rs.getObject(8), rs.getInt(9),
                            rs.getInt(10), rs.getInt(11), rs.getLong(12)), skuId).get(0);
        }
    }

    private static Arguments row(String name, Caller caller, String method, String path, String contentType, String body,
            int status) {
        return Arguments.of(name, caller, method, path, contentType, body, status);
    }

    private static String line(String skuId, String quantity) {
        return "{\"items\":[{\"skuId\":" + skuId + ",\"quantity\":" + quantity + "}]}";
    }

    private static String manyLines() {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            lines.add("{\"skuId\":" + (1000 + i) + ",\"quantity\":1}");
        }
        return "{\"items\":[" + String.join(",", lines) + "]}";
    }
}
