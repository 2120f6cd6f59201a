package com.shop.orders.inventory;

import static com.shop.orders.testsupport.Members.adminToken;
import static com.shop.orders.testsupport.Members.as;
import static com.shop.orders.testsupport.Members.newMemberToken;
import static com.shop.orders.testsupport.Members.orderOf;
import static com.shop.orders.testsupport.Payments.pay;
import static com.shop.orders.testsupport.Payments.requestQr;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.json.JsonMapper;

import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.Concurrently;
import com.shop.orders.testsupport.Members;
import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.TestDb;
import com.shop.orders.testsupport.TestDb.BucketRow;
import com.shop.orders.testsupport.TestDb.SkuRow;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;

/**
 * Stock buckets on the real database: a flash sale spread over buckets sells exactly its units, each unit is taken
 * from and given back to one bucket, laying the buckets out anew keeps what pending orders hold, and a limit changed
 * behind this instance's catalog still holds. Every test ends on the stock and bucket invariants, read by SQL.
 * Orders left pending expire after the test profile's 6 s pay window; the invariants hold whenever they are read.
 */
@QuarkusTest
class StockBucketsTest {

    private static final String LIMIT_TITLE = "Purchase limit reached";
    private static final Duration EXPIRED = Duration.ofSeconds(30);

    @Test
    void fiveHundredBuyersGetExactlyTheTwoHundredUnitsOfSixteenBuckets() throws Exception {
        long sku = bucketed(200, 16);
        List<BucketRow> before = TestDb.buckets(sku);
        assertEven(before);
        List<String> tokens = tokens(500);

        long start = System.nanoTime();
        Map<Integer, Long> byStatus = Concurrently.run(48, tokens.stream()
                        .<Callable<Integer>> map(token -> () -> placeQuickly(token, sku)).toList()).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        Object end = TestDb.scalar("SELECT UTC_TIMESTAMP(6)");

        // Exactly the 200 units sold: none twice, none refused while there. Within the 6 s pay window nothing
        // expires during the burst; on a machine too slow for that, what expired may have been sold again.
        long released = closedBy(sku, end);
        assertSold(200, released, byStatus, 500, "500 buyers in " + took);
        assertEquals(200, TestDb.sku(sku).stock());
        TestDb.assertStockInvariant(sku, 200);
        TestDb.assertBucketInvariant(sku);
        // Every unit of every bucket went to an order, each one-unit item from one bucket.
        Map<Integer, Integer> had = before.stream().collect(Collectors.toMap(BucketRow::bucketNo, BucketRow::stock));
        if (released == 0) {
            assertEquals(had, soldByBucket(sku), "units sold from each bucket");
        }
        assertEquals(16, soldByBucket(sku).size());
        assertEquals(byStatus.get(201), TestDb.count("SELECT COUNT(*) FROM order_item WHERE sku_id = ? "
                + "AND stock_buckets REGEXP '^[0-9]+:1$'", sku));
    }

    @Test
    void theLastUnitsInSomeBucketsSellOutExactly() throws Exception {
        // One unit per bucket: wherever a placement starts, it must find the buckets that still have one.
        long sku = bucketed(8, 8);
        List<String> tokens = tokens(16);
        Map<Integer, String> buyers = new HashMap<>();
        for (int i = 0; i < 8; i++) {
            Response placed = place(tokens.get(i), sku, 1);
            assertEquals(201, placed.statusCode(), "buyer " + (i + 1) + " of 8 refused while units remain: " + placed.asString());
            buyers.put(placed.path("id"), tokens.get(i));
        }
        place(tokens.get(8), sku, 1).then().statusCode(409).contentType("application/problem+json")
                .body("skuId", equalTo((int) sku));
        assertEquals(IntStream.range(0, 8).mapToObj(b -> b + ":1").sorted().toList(),
                buyers.keySet().stream().map(id -> shares(id, sku)).sorted().toList(), "one unit from each bucket");

        // Only bucket 5 has a unit again.
        int inFive = buyers.keySet().stream().filter(id -> "5:1".equals(shares(id, sku))).findFirst().orElseThrow();
        as(buyers.get(inFive)).post("/api/orders/" + inFive + "/cancel").then().statusCode(200);
        assertEquals(new BucketRow(5, 1, 0), TestDb.buckets(sku).get(5));
        Response last = place(tokens.get(9), sku, 1);
        assertNothingExpired(sku);
        assertEquals(201, last.statusCode(), "the unit back in bucket 5 refused: " + last.asString());
        assertEquals("5:1", shares(last.path("id"), sku));
        place(tokens.get(10), sku, 1).then().statusCode(409);
        assertEquals(new SkuRow(8, 8), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 8);
        TestDb.assertBucketInvariant(sku);

        // Few units on many buckets, by setting the stock: 3 units, 5 of the 8 buckets empty.
        long few = bucketed(40, 8);
        setStock(few, 3).then().statusCode(200).body("stock", equalTo(3)).body("available", equalTo(3));
        assertEven(TestDb.buckets(few));
        for (int i = 0; i < 3; i++) {
            Response placed = place(tokens.get(11 + i), few, 1);
            assertEquals(201, placed.statusCode(), "buyer " + (i + 1) + " of 3 refused while units remain: " + placed.asString());
        }
        place(tokens.get(14), few, 1).then().statusCode(409);
        assertNothingExpired(few);
        assertEquals(new SkuRow(3, 3), TestDb.sku(few));
        TestDb.assertStockInvariant(few, 3);
        TestDb.assertBucketInvariant(few);
    }

    @Test
    void aLineLargerThanAnyBucketTakesFromSeveralAndGivesEachUnitBackOnce() {
        long sku = bucketed(32, 16);
        List<BucketRow> before = TestDb.buckets(sku);
        assertTrue(before.stream().allMatch(b -> b.stock() == 2 && b.lockStock() == 0), before::toString);
        String member = newMemberToken();

        int order = place(member, sku, 5).then().statusCode(201).extract().path("id");
        List<int[]> shares = TestDb.parseShares(shares(order, sku));
        assertNotNull(shares, "stock_buckets of the item: " + shares(order, sku));
        assertTrue(shares.size() >= 3, "5 units from buckets of 2: " + shares(order, sku));
        assertEquals(5, shares.stream().mapToInt(s -> s[1]).sum());
        for (int[] share : shares) {
            assertEquals(share[1], TestDb.buckets(sku).get(share[0]).lockStock(), "bucket " + share[0]);
        }
        assertEquals(new SkuRow(32, 5), TestDb.sku(sku));
        TestDb.assertBucketInvariant(sku);

        as(member).post("/api/orders/" + order + "/cancel").then().statusCode(200).body("status", equalTo("CLOSED"));
        assertEquals(before, TestDb.buckets(sku));
        as(member).post("/api/orders/" + order + "/cancel").then().statusCode(409);
        assertEquals(before, TestDb.buckets(sku));

        // All the units of all the buckets in one line; then nothing is left.
        int all = place(member, sku, 32).then().statusCode(201).extract().path("id");
        assertEquals(IntStream.range(0, 16).mapToObj(b -> b + ":2").collect(Collectors.joining(",")), shares(all, sku));
        place(newMemberToken(), sku, 1).then().statusCode(409);
        as(member).post("/api/orders/" + all + "/cancel").then().statusCode(200);
        assertEquals(before, TestDb.buckets(sku));
        TestDb.assertStockInvariant(sku, 32);
        TestDb.assertBucketInvariant(sku);
    }

    @Test
    void purchaseLimitsHoldExactlyOnABucketedSku() throws Exception {
        long sku = bucketed(100, 16);
        limit(sku, 2).then().statusCode(200).body("perMemberLimit", equalTo(2)).body("buckets", equalTo(16));
        List<String> members = IntStream.range(0, 10).mapToObj(i -> "bkt-" + UUID.randomUUID().toString().substring(0, 12))
                .toList();
        Map<String, String> tokens = members.stream().collect(Collectors.toMap(m -> m, m -> Members.token(m, false)));
        List<Callable<String>> orders = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            for (String member : members) {
                orders.add(() -> {
                    Response r = place(tokens.get(member), sku, 1);
                    if (r.statusCode() == 409) {
                        assertEquals(LIMIT_TITLE, r.path("title"), r.asString());
                    }
                    return r.statusCode() == 201 ? member : "refused";
                });
            }
        }

        Map<String, Long> won = Concurrently.run(30, orders).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));

        // Never more than 2 held at once: exactly 2 each, unless (on a slow machine) one expired meanwhile.
        for (String m : members) {
            long expired = TestDb.count("SELECT COUNT(*) FROM orders WHERE member_id = ? AND close_reason = 'EXPIRED'", m);
            long wins = won.getOrDefault(m, 0L);
            assertTrue(wins >= 2 && wins <= 2 + expired, "member " + m + " won " + wins + ", " + expired + " expired: " + won);
            TestDb.assertAllowanceInvariant(m);
        }
        assertEquals(60L, won.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(100, TestDb.sku(sku).stock());
        TestDb.assertStockInvariant(sku, 100);
        TestDb.assertBucketInvariant(sku);
    }

    @Test
    void aLimitAnotherReplicaSetHoldsAtOnceWhileThisCatalogHasTheOldOne() {
        for (int buckets : new int[] {16, 1}) {
            long sku = buckets == 1 ? TestDb.newSku(10, "5.00") : bucketed(10, buckets);
            String member = "bkt-" + UUID.randomUUID().toString().substring(0, 12);
            String token = Members.token(member, false);
            // The catalog reads the SKU without a limit, and keeps it for its TTL (30 s).
            place(token, sku, 1).then().statusCode(201);
            limitFromAnotherReplica(sku, 1);

            place(token, sku, 1).then().statusCode(409).contentType("application/problem+json")
                    .body("title", equalTo(LIMIT_TITLE)).body("limit", equalTo("per-member"))
                    .body("max", equalTo(1)).body("held", equalTo(1));
            // Others still buy, under the new limit.
            String other = newMemberToken();
            place(other, sku, 1).then().statusCode(201);
            place(other, sku, 1).then().statusCode(409).body("title", equalTo(LIMIT_TITLE));

            assertEquals(new SkuRow(10, 2), TestDb.sku(sku), buckets + " buckets");
            assertEquals(1, TestDb.assertAllowanceInvariant(member));
            TestDb.assertStockInvariant(sku, 10);
            TestDb.assertBucketInvariant(sku);
        }
    }

    @Test
    void layingTheBucketsOutAnewKeepsWhatPendingOrdersHold() {
        long sku = TestDb.newSku(20, "5.00");
        String[] members = IntStream.range(0, 7).mapToObj(i -> newMemberToken()).toArray(String[]::new);
        int a = place(members[0], sku, 2).then().statusCode(201).extract().path("id");
        int b = place(members[1], sku, 3).then().statusCode(201).extract().path("id");
        int c = place(members[2], sku, 1).then().statusCode(201).extract().path("id");
        assertNull(TestDb.scalar("SELECT stock_buckets FROM order_item WHERE order_id = ?", a));

        // 1 -> 8: the row's 6 held units into bucket 0, the 14 free ones evenly over the 8.
        setBuckets(sku, 8).then().statusCode(200).body("buckets", equalTo(8)).body("stock", equalTo(20))
                .body("available", equalTo(14));
        List<BucketRow> eight = TestDb.buckets(sku);
        assertEquals(8, eight.size());
        assertEquals(6, eight.get(0).lockStock(), eight::toString);
        assertEven(eight);
        assertEquals(new SkuRow(0, 0), onSkuRow(sku));
        TestDb.assertBucketInvariant(sku);
        TestDb.assertStockInvariant(sku, 20);

        as(members[0]).post("/api/orders/" + a + "/cancel").then().statusCode(200);
        assertEquals(4, TestDb.buckets(sku).get(0).lockStock());
        pay(requestQr(members[1], b));
        TestDb.awaitOrderStatus(b, "PAID", Duration.ofSeconds(15));
        TestDb.assertBucketInvariant(sku);
        TestDb.assertStockInvariant(sku, 20);

        // Orders under the 8 buckets, then 8 -> 4: their holds (and c's) into bucket 0.
        int d = place(members[3], sku, 2).then().statusCode(201).extract().path("id");
        int e = place(members[4], sku, 1).then().statusCode(201).extract().path("id");
        assertNotNull(TestDb.parseShares(shares(d, sku)), "stock_buckets under 8 buckets: " + shares(d, sku));
        setBuckets(sku, 4).then().statusCode(200).body("buckets", equalTo(4)).body("stock", equalTo(17));
        List<BucketRow> four = TestDb.buckets(sku);
        assertEquals(4, four.size());
        assertEven(four);
        TestDb.assertBucketInvariant(sku);
        TestDb.assertStockInvariant(sku, 20);
        as(members[3]).post("/api/orders/" + d + "/cancel").then().statusCode(200);
        TestDb.assertBucketInvariant(sku);
        // c (placed on the row) and e (under 8 buckets) expire out of bucket 0.
        TestDb.awaitOrderStatus(c, "CLOSED", EXPIRED);
        TestDb.awaitOrderStatus(e, "CLOSED", EXPIRED);
        assertEquals("EXPIRED", TestDb.scalar("SELECT close_reason FROM orders WHERE id = ?", e));
        assertEquals(new SkuRow(17, 0), TestDb.sku(sku));
        TestDb.assertBucketInvariant(sku);
        TestDb.assertStockInvariant(sku, 20);

        // An order under the 4 buckets, then 4 -> 1: everything back on the row, no bucket rows.
        int f = place(members[5], sku, 2).then().statusCode(201).extract().path("id");
        setBuckets(sku, 1).then().statusCode(200).body("buckets", equalTo(1)).body("stock", equalTo(17))
                .body("available", equalTo(15));
        assertEquals(List.of(), TestDb.buckets(sku));
        assertEquals(new SkuRow(17, 2), onSkuRow(sku));
        TestDb.assertBucketInvariant(sku);
        as(members[5]).post("/api/orders/" + f + "/cancel").then().statusCode(200);
        assertEquals(new SkuRow(17, 0), onSkuRow(sku));
        place(members[6], sku, 17).then().statusCode(201);
        assertEquals(new SkuRow(17, 17), onSkuRow(sku));
        TestDb.assertBucketInvariant(sku);
        TestDb.assertStockInvariant(sku, 20);
    }

    @Test
    void paymentDeductsFromItsBucketsAndStockChangesSpreadOverThem() {
        long sku = bucketed(16, 8);
        String member = newMemberToken();
        int paid = place(member, sku, 3).then().statusCode(201).extract().path("id");
        List<int[]> shares = TestDb.parseShares(shares(paid, sku));
        assertNotNull(shares);
        List<BucketRow> held = TestDb.buckets(sku);

        pay(requestQr(member, paid));
        TestDb.awaitOrderStatus(paid, "PAID", Duration.ofSeconds(15));

        List<BucketRow> after = TestDb.buckets(sku);
        Map<Integer, Integer> took = shares.stream().collect(Collectors.toMap(s -> s[0], s -> s[1]));
        for (BucketRow bucket : held) {
            int units = took.getOrDefault(bucket.bucketNo(), 0);
            assertEquals(new BucketRow(bucket.bucketNo(), bucket.stock() - units, bucket.lockStock() - units),
                    after.get(bucket.bucketNo()), "bucket " + bucket.bucketNo() + " of " + shares(paid, sku));
        }
        assertEquals(new SkuRow(13, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 16);
        TestDb.assertBucketInvariant(sku);

        // Setting the stock: never below what pending orders hold; the free units spread evenly.
        String other = newMemberToken();
        int pending = place(other, sku, 4).then().statusCode(201).extract().path("id");
        List<BucketRow> reserved = TestDb.buckets(sku);
        setStock(sku, 3).then().statusCode(409).contentType("application/problem+json")
                .body("skuId", equalTo((int) sku));
        assertEquals(reserved, TestDb.buckets(sku));
        setStock(sku, 28).then().statusCode(200).body("stock", equalTo(28)).body("available", equalTo(24))
                .body("buckets", equalTo(8));
        assertEven(TestDb.buckets(sku));
        assertEquals(new SkuRow(28, 4), TestDb.sku(sku));
        TestDb.assertBucketInvariant(sku);
        TestDb.assertStockInvariant(sku, 28 + 3);
        given().get("/api/skus/" + sku).then().statusCode(200).body("stock", equalTo(28)).body("available", equalTo(24))
                .body("buckets", equalTo(8));
        as(other).post("/api/orders/" + pending + "/cancel").then().statusCode(200);

        // A refund's returned units spread over the buckets too.
        List<BucketRow> beforeRefund = TestDb.buckets(sku);
        as(adminToken()).header("Idempotency-Key", "k-" + UUID.randomUUID()).contentType(ContentType.JSON)
                .body(Map.of("amount", 15, "restock", List.of(Map.of("skuId", sku, "quantity", 3))))
                .post("/api/admin/orders/" + paid + "/refunds").then().statusCode(201).body("status", equalTo("SUCCEEDED"));
        List<BucketRow> refunded = TestDb.buckets(sku);
        List<Integer> gained = IntStream.range(0, 8).mapToObj(k -> refunded.get(k).stock() - beforeRefund.get(k).stock())
                .toList();
        assertEquals(3, gained.stream().mapToInt(Integer::intValue).sum(), gained::toString);
        assertTrue(gained.stream().allMatch(g -> g == 0 || g == 1), "3 units over 8 buckets: " + gained);
        assertEquals(31, TestDb.sku(sku).stock());
        TestDb.assertStockInvariant(sku, 28 + 3);
        TestDb.assertBucketInvariant(sku);
    }

    @Test
    void badBucketCountsAreRefusedAndChangeNothing() {
        long sku = bucketed(16, 8);
        place(newMemberToken(), sku, 3).then().statusCode(201);
        String path = "/api/admin/skus/" + sku + "/buckets";
        Object before = state(sku);

        for (String body : List.of("{\"buckets\":0}", "{\"buckets\":65}", "{\"buckets\":-1}", "{}", "{\"buckets\":null}",
                "{\"buckets\":\"8\"}", "{\"buckets\":1.5}", "{\"buckets\":99999999999}", "{\"buckets\":", "[]")) {
            as(adminToken()).contentType(ContentType.JSON).body(body).put(path).then().statusCode(400)
                    .contentType("application/problem+json").body("status", equalTo(400));
            assertEquals(before, state(sku), "after " + body);
        }
        as(adminToken()).contentType(ContentType.JSON).body("{\"buckets\":4}").put("/api/admin/skus/424242424/buckets")
                .then().statusCode(404).contentType("application/problem+json");
        as(newMemberToken()).contentType(ContentType.JSON).body("{\"buckets\":4}").put(path).then().statusCode(403)
                .contentType("application/problem+json");
        given().contentType(ContentType.JSON).body("{\"buckets\":4}").put(path).then().statusCode(401)
                .contentType("application/problem+json");
        assertEquals(before, state(sku));
        // The bounds themselves are allowed.
        setBuckets(sku, 64).then().statusCode(200).body("buckets", equalTo(64));
        assertEquals(64, TestDb.buckets(sku).size());
        TestDb.assertBucketInvariant(sku);
        setBuckets(sku, 1).then().statusCode(200).body("buckets", equalTo(1));
        TestDb.assertBucketInvariant(sku);
        TestDb.assertStockInvariant(sku, 16);
    }

    @Test
    void placementsRacingNewLayoutsSellExactlyTheUnits() throws Exception {
        long sku = bucketed(100, 16);
        List<String> tokens = tokens(250);
        AtomicBoolean done = new AtomicBoolean();
        List<Callable<Integer>> tasks = new ArrayList<>();
        tokens.forEach(token -> tasks.add(() -> placeQuickly(token, sku)));
        // The admin lays the buckets out three times while the buyers place.
        tasks.add(0, () -> {
            for (int n : new int[] {4, 9, 16}) {
                Pause.of(Duration.ofMillis(250));
                if (done.get()) {
                    break;
                }
                setBuckets(sku, n).then().statusCode(200);
            }
            return 0;
        });

        long start = System.nanoTime();
        List<Integer> statuses = Concurrently.run(33, tasks);
        done.set(true);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        long released = closedBy(sku, TestDb.scalar("SELECT UTC_TIMESTAMP(6)"));

        Map<Integer, Long> byStatus = statuses.subList(1, statuses.size()).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertSold(100, released, byStatus, 250, "250 buyers and 3 layouts in " + took);
        assertEquals(100, TestDb.sku(sku).stock());
        TestDb.assertStockInvariant(sku, 100);
        TestDb.assertBucketInvariant(sku);
    }

    @Test
    void concurrentReleasesOfHoldsFromAnOlderLayoutSucceedAmongPlacementsAndStockChanges() throws Exception {
        long sku = bucketed(64, 16);
        List<String> tokens = tokens(40);
        List<Integer> orders = Concurrently.run(8, tokens.stream().<Callable<Integer>> map(token ->
                () -> place(token, sku, 1).then().statusCode(201).extract().<Integer> path("id")).toList());
        // Every hold now counts as bucket 0's; each item still names the bucket it came from under the old layout.
        setBuckets(sku, 8).then().statusCode(200);
        assertEquals(40, TestDb.buckets(sku).get(0).lockStock());
        TestDb.assertBucketInvariant(sku);

        // Meanwhile lines of 4 units (more than any bucket's 3 free ones), which lock all buckets, and an admin's
        // stock change, which locks the SKU and all its buckets.
        List<String> large = tokens(6);
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < orders.size(); i++) {
            String token = tokens.get(i);
            int order = orders.get(i);
            tasks.add(() -> "cancel " + as(token).post("/api/orders/" + order + "/cancel").statusCode());
            if (i % 7 == 3) {
                String buyer = large.get(i / 7);
                tasks.add(() -> "place " + place(buyer, sku, 4).statusCode());
            }
            if (i == 20) {
                tasks.add(() -> "stock " + setStock(sku, 64).statusCode());
            }
        }
        Map<String, Long> byStatus = Concurrently.run(20, tasks).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));

        assertEquals(Map.of("cancel 200", 40L, "place 201", 6L, "stock 200", 1L), byStatus,
                "40 cancels of holds from the older layout among placements and a stock change");
        assertEquals(new SkuRow(64, 24), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 64);
        TestDb.assertBucketInvariant(sku);
    }

    /**
     * Placement locks bucket rows first and SKU rows last; a close or a payment that took a SKU row (or the member's
     * allowances) before a bucket deadlocked with it on every order that also has a SKU without buckets. InnoDB's own
     * deadlock count must not move while closes, payments and placements of such orders race.
     */
    @Test
    void closesAndPaymentsNeverDeadlockWithPlacementsOfOrdersAlsoOnASkuWithoutBuckets() throws Exception {
        long plain = TestDb.newSku(1000, "2.00");
        long hot = bucketed(1000, 4);
        // Allowance rows in every transaction too.
        limit(hot, 5).then().statusCode(200);
        String both = "{\"items\":[{\"skuId\":" + plain + ",\"quantity\":1},{\"skuId\":" + hot + ",\"quantity\":1}]}";
        List<String> holders = tokens(20);
        List<String> buyers = tokens(40);
        List<Integer> held = Concurrently.run(8, holders.stream().<Callable<Integer>> map(token -> () -> {
            HttpResponse<String> placed = post(token, "/api/orders", both);
            assertEquals(201, placed.statusCode(), placed.body());
            return JSON.readTree(placed.body()).get("id").asInt();
        }).toList());

        long deadlocksBefore = TestDb.deadlocks();
        List<Callable<String>> tasks = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            String token = holders.get(i);
            String order = "/api/orders/" + held.get(i);
            tasks.add(i % 2 == 0
                    ? () -> "cancel " + post(token, order + "/cancel", null).statusCode()
                    : () -> payQuickly(token, order));
            for (String buyer : buyers.subList(2 * i, 2 * i + 2)) {
                tasks.add(() -> "place " + post(buyer, "/api/orders", both).statusCode());
            }
        }
        Map<String, Long> outcomes = Concurrently.run(16, tasks).stream()
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        for (int i = 1; i < held.size(); i += 2) {
            TestDb.awaitOrderStatus(held.get(i), "PAID", Duration.ofSeconds(30));
        }

        assertNothingExpired(plain);
        assertEquals(Map.of("cancel 200", 10L, "paid", 10L, "place 201", 40L), outcomes);
        assertEquals(deadlocksBefore, TestDb.deadlocks(), "InnoDB deadlocks while closes and payments raced placements");
        TestDb.assertStockInvariant(plain, 1000);
        TestDb.assertStockInvariant(hot, 1000);
        TestDb.assertBucketInvariant(hot);
    }

    @Test
    void theBucketInvariantSeesAHoldInTheWrongBucketOrALostOne() {
        long sku = bucketed(16, 8);
        int order = place(newMemberToken(), sku, 1).then().statusCode(201).extract().path("id");
        int bucket = TestDb.parseShares(shares(order, sku)).get(0)[0];
        int other = (bucket + 1) % 8;
        TestDb.assertBucketInvariant(sku);

        // The unit's hold in a neighbouring bucket: the totals agree, the buckets do not.
        TestDb.update("UPDATE sku_bucket SET lock_stock = lock_stock + IF(bucket_no = ?, -1, 1) WHERE sku_id = ? "
                + "AND bucket_no IN (?, ?)", bucket, sku, bucket, other);
        TestDb.assertStockInvariant(sku, 16);
        assertEquals(2, TestDb.bucketViolations(sku).size(), TestDb.bucketViolations(sku)::toString);
        // The hold lost; then a bucket row missing.
        TestDb.update("UPDATE sku_bucket SET lock_stock = 0 WHERE sku_id = ?", sku);
        assertEquals(1, TestDb.bucketViolations(sku).size(), TestDb.bucketViolations(sku)::toString);
        TestDb.update("UPDATE sku_bucket SET lock_stock = 1 WHERE sku_id = ? AND bucket_no = ?", sku, bucket);
        TestDb.assertBucketInvariant(sku);
        int gone = bucket == 7 ? 6 : 7;
        TestDb.update("DELETE FROM sku_bucket WHERE sku_id = ? AND bucket_no = ?", sku, gone);
        assertTrue(TestDb.bucketViolations(sku).stream().anyMatch(v -> v.contains("bucket rows")),
                TestDb.bucketViolations(sku)::toString);
        // Put right, so that the order's close finds its unit.
        TestDb.update("INSERT IGNORE INTO sku_bucket (sku_id, bucket_no, stock, lock_stock, sku_version, layout) "
                + "SELECT sku_id, ?, 2, 0, sku_version, layout FROM sku_bucket WHERE sku_id = ? AND bucket_no = 0", gone, sku);
        TestDb.assertBucketInvariant(sku);
        // The test's stand-in for another replica's close gives the unit back to its bucket too.
        assertEquals(List.of(sku), AnotherInstance.closes(order, "EXPIRED"));
        assertEquals(new SkuRow(16, 0), TestDb.sku(sku));
        TestDb.assertBucketInvariant(sku);
    }

    // --- helpers

    /** For the bursts: a plain HTTP client costs the two cores far less than RestAssured per request. */
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TestHTTPResource("/")
    URI base;

    /** Tokens of that many new members, fetched before a burst. */
    private List<String> tokens(int members) throws Exception {
        return Concurrently.run(8, IntStream.range(0, members).<Callable<String>> mapToObj(i -> () -> {
            String body = "{\"memberId\":\"bkt-" + UUID.randomUUID().toString().substring(0, 12) + "\",\"admin\":false}";
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(base.resolve("/dev/token"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            return JSON.readTree(response.body()).get("token").asText();
        }).toList());
    }

    /** Places a one-unit order of the SKU; answers the status. */
    private int placeQuickly(String token, long sku) throws Exception {
        return post(token, "/api/orders", "{\"items\":[{\"skuId\":" + sku + ",\"quantity\":1}]}").statusCode();
    }

    /** The member's POST with a JSON body (or none); {@code token} null: without one. */
    private HttpResponse<String> post(String token, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The order's QR code, paid by the sandbox buyer: "paid", or what refused it. */
    private String payQuickly(String token, String order) throws Exception {
        HttpResponse<String> qr = post(token, order + "/payment", null);
        if (qr.statusCode() != 200) {
            return "payment " + qr.statusCode();
        }
        String code = JSON.readTree(qr.body()).get("qrCode").asText();
        HttpResponse<String> paid = post(null, "/sandbox/alipay/buyer/pay", JSON.writeValueAsString(Map.of("qrCode", code)));
        return paid.statusCode() == 200 ? "paid" : "pay " + paid.statusCode();
    }

    /**
     * {@code units} sold to as many buyers and the others refused as sold out, when nothing was released meanwhile;
     * else up to {@code released} more sold (those units came back during the burst).
     */
    private static void assertSold(int units, long released, Map<Integer, Long> byStatus, int buyers, String what) {
        long sold = byStatus.getOrDefault(201, 0L);
        if (released == 0) {
            assertEquals(Map.of(201, (long) units, 409, (long) buyers - units), byStatus, what);
        } else {
            assertTrue(sold >= units && sold <= units + released && byStatus.getOrDefault(409, 0L) == buyers - sold,
                    what + ", " + released + " orders closed meanwhile: " + byStatus);
        }
    }

    /** The test's exact expectations assume its pending orders are still pending: it ran within the pay window. */
    private static void assertNothingExpired(long sku) {
        assertEquals(0, TestDb.count("SELECT COUNT(*) FROM orders o JOIN order_item i ON i.order_id = o.id "
                + "WHERE i.sku_id = ? AND o.close_reason = 'EXPIRED'", sku),
                "orders of SKU " + sku + " expired mid-test: it ran past the 6 s pay window");
    }

    /** Orders holding the SKU that were closed by then (UTC, as the database has it). */
    private static long closedBy(long sku, Object then) {
        return TestDb.count("SELECT COUNT(*) FROM orders o JOIN order_item i ON i.order_id = o.id "
                + "WHERE i.sku_id = ? AND o.status = 'CLOSED' AND o.closed_at <= ?", sku, then);
    }

    /** A fresh SKU of {@code stock} units laid out over {@code buckets} buckets by the admin API. */
    private static long bucketed(int stock, int buckets) {
        long sku = TestDb.newSku(stock, "5.00");
        setBuckets(sku, buckets).then().statusCode(200).contentType(ContentType.JSON)
                .body("id", equalTo((int) sku)).body("buckets", equalTo(buckets))
                .body("stock", equalTo(stock)).body("available", equalTo(stock));
        assertEquals(buckets, TestDb.buckets(sku).size());
        TestDb.assertBucketInvariant(sku);
        return sku;
    }

    private static Response setBuckets(long sku, int buckets) {
        return as(adminToken()).contentType(ContentType.JSON).body(Map.of("buckets", buckets))
                .put("/api/admin/skus/" + sku + "/buckets");
    }

    private static Response setStock(long sku, int stock) {
        return as(adminToken()).contentType(ContentType.JSON).body(Map.of("stock", stock))
                .put("/api/admin/skus/" + sku + "/stock");
    }

    private static Response limit(long sku, int perMember) {
        return as(adminToken()).contentType(ContentType.JSON).body(Map.of("perMemberLimit", perMember))
                .put("/api/admin/skus/" + sku + "/limit");
    }

    private static Response place(String token, long sku, int quantity) {
        return as(token).contentType(ContentType.JSON).body(orderOf(sku, quantity)).post("/api/orders");
    }

    /** What an admin call on another replica does: the limit and the SKU's version, and every bucket's, at once. */
    private static void limitFromAnotherReplica(long sku, int perMember) {
        TestDb.update("UPDATE sku SET per_member_limit = ?, version = version + 1 WHERE id = ?", perMember, sku);
        TestDb.update("UPDATE sku_bucket SET sku_version = (SELECT version FROM sku WHERE id = ?) WHERE sku_id = ?",
                sku, sku);
    }

    /** The item's stock_buckets. */
    private static String shares(int orderId, long sku) {
        return TestDb.scalar("SELECT stock_buckets FROM order_item WHERE order_id = ? AND sku_id = ?", orderId, sku);
    }

    /** The stock and lock on the SKU's own row. */
    private static SkuRow onSkuRow(long sku) {
        return TestDb.query("SELECT stock, lock_stock FROM sku WHERE id = ?", rs -> new SkuRow(rs.getInt(1), rs.getInt(2)),
                sku).get(0);
    }

    /** Units of the SKU's items taken from each bucket, by their stock_buckets. */
    private static Map<Integer, Integer> soldByBucket(long sku) {
        Map<Integer, Integer> sold = new TreeMap<>();
        for (String text : TestDb.query("SELECT stock_buckets FROM order_item WHERE sku_id = ?", rs -> rs.getString(1), sku)) {
            List<int[]> shares = TestDb.parseShares(text);
            assertNotNull(shares, "stock_buckets '" + text + "'");
            shares.forEach(s -> sold.merge(s[0], s[1], Integer::sum));
        }
        return sold;
    }

    /** The free units differ by at most one between buckets. */
    private static void assertEven(List<BucketRow> buckets) {
        int max = buckets.stream().mapToInt(BucketRow::free).max().orElseThrow();
        int min = buckets.stream().mapToInt(BucketRow::free).min().orElseThrow();
        assertTrue(max - min <= 1, "free units not spread evenly: " + buckets);
    }

    /** Everything a refused admin call must leave as it was: the SKU row and its bucket rows. */
    private static Object state(long sku) {
        Map<String, Object> state = new HashMap<>(TestDb.query("SELECT buckets, version, layout, stock, lock_stock, "
                + "per_member_limit FROM sku WHERE id = ?", rs -> Map.<String, Object> of("buckets", rs.getInt(1),
                        "version", rs.getInt(2), "layout", rs.getInt(3), "stock", rs.getInt(4), "lock", rs.getInt(5),
                        "limit", String.valueOf(rs.getObject(6))), sku).get(0));
        state.put("rows", TestDb.query("SELECT CONCAT_WS('/', bucket_no, stock, lock_stock, sku_version, layout) "
                + "FROM sku_bucket WHERE sku_id = ? ORDER BY bucket_no", rs -> rs.getString(1), sku));
        return state;
    }
}
