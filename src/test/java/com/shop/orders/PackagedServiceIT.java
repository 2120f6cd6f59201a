package com.shop.orders;

import static com.shop.orders.testsupport.Management.management;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.shop.orders.ops.Monitoring;
import com.shop.orders.sandbox.alipay.BillFaults;
import com.shop.orders.sandbox.alipay.BuyerActionRefused;
import com.shop.orders.sandbox.alipay.MethodFault;
import com.shop.orders.sandbox.alipay.SandboxFaults;
import com.shop.orders.sandbox.alipay.SandboxServer;
import com.shop.orders.sandbox.alipay.SandboxTradeStatus;
import com.shop.orders.sandbox.wechat.WechatBuyerRefused;
import com.shop.orders.sandbox.wechat.WechatFaults;
import com.shop.orders.sandbox.wechat.WechatSandboxServer;
import com.shop.orders.sandbox.wechat.WechatTradeView;
import com.shop.orders.testsupport.AnotherInstance;
import com.shop.orders.testsupport.EventStream;
import com.shop.orders.testsupport.Members;
import com.shop.orders.testsupport.Metrics;
import com.shop.orders.testsupport.OtlpReceiver;
import com.shop.orders.testsupport.PackagedServiceResource;
import com.shop.orders.testsupport.Payments;
import com.shop.orders.testsupport.PromptPolling;
import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;

/**
 * Smoke test of the packaged service as it ships (production profile, no sandbox inside): the jar in CI,
 * the native executable when built with {@code -Dnative}. Place, pay through the Alipay sandbox, expire, with the
 * app in Alipay's certificate mode (certificates as files): every payment flow, a lost notify found by query, a
 * payment after the close refunded, Alipay re-issuing its certificate (downloaded, checked against the root,
 * trusted), an answer under a certificate of another authority (refused, nothing changes) and a request under an
 * application certificate Alipay no longer holds (refused with its code). The fault suite and the benchmark run
 * the packaged service in public-key mode, the {@code @QuarkusTest}s in-app. WeChat Pay is offered beside Alipay
 * (its sandbox a server of its own, over HTTP): paid by notify, by the probe when the notify is lost, closed on a
 * cancel, and both wallets paid at once (one kept, the other refunded in full once).
 */
@QuarkusIntegrationTest
@QuarkusTestResource(value = PackagedServiceResource.class, restrictToAnnotatedClass = true)
class PackagedServiceIT {

    private static final String CERTIFICATE_DOWNLOAD = "alipay.open.app.alipaycert.download";
    private static final Path LOG = Path.of("target", "quarkus.log");

    @BeforeAll
    static void promptPolling() {
        PromptPolling.apply();
    }

    @AfterEach
    void resetSandboxFaults() {
        PackagedServiceResource.sandbox().faults().reset();
        PackagedServiceResource.wechatSandbox().faults().reset();
    }

    @Test
    void servesHealthAndMetrics() {
        management().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        management().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        management().get("/q/metrics").then().statusCode(200).body(containsString("orders_placed_total"));
    }

    @Test
    void anOrderIsPlacedAndPaidThroughAlipay() {
        long sku = TestDb.newSku(5, "12.50");
        String member = PackagedServiceResource.memberToken("it-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(member, sku, 2);
        // The channel named in a JSON body (read by the service's own ObjectMapper: registered in the executable).
        given().get("/api/payment-channels").then().statusCode(200).body("channels", equalTo(java.util.List.of("alipay", "wechat")));
        String qrCode = Members.as(member).contentType(ContentType.JSON).body(Map.of("channel", "alipay"))
                .post("/api/orders/" + orderId + "/payment").then().statusCode(200).body("channel", equalTo("alipay"))
                .extract().path("qrCode");
        // The QR code came from the gateway over TLS, as from Alipay's.
        assertTrue(PackagedServiceResource.sandbox().gatewayUrl().startsWith("https://"));
        PackagedServiceResource.sandbox().buyer().pay(qrCode).orElseThrow();

        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        assertEquals(new TestDb.SkuRow(3, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
    }

    @Test
    void anUnpaidOrderIsClosedAtItsDeadline() throws Exception {
        long sku = TestDb.newSku(5, "3.00");
        String member = PackagedServiceResource.memberToken("it-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(member, sku, 1);
        String qrCode = Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().path("qrCode");

        await().atMost(Duration.ofSeconds(30)).until(() -> "CLOSED".equals(status(member, orderId)));
        Members.as(member).get("/api/orders/" + orderId).then().body("closeReason", equalTo("EXPIRED"));
        String orderNo = TestDb.scalar("SELECT order_no FROM orders WHERE id = ?", orderId);
        assertEquals(SandboxTradeStatus.TRADE_CLOSED,
                PackagedServiceResource.sandbox().trades().trade(orderNo).orElseThrow().status());
        assertThrows(BuyerActionRefused.class, () -> PackagedServiceResource.sandbox().buyer().pay(qrCode));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));

        // The broker checked back on it while it was pending (every second, answered UNKNOW): the RocketMQ client
        // writes a WARN line for each such answer unless its producer's category is kept at ERROR.
        Path log = Path.of("target", "quarkus.log");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(log).contains("Order " + orderNo + " closed"));
        assertFalse(Files.readString(log).contains("does not know this transaction state"),
                "a log line per check-back answered UNKNOW");
    }

    /** As it ships: the API contract, the checkout page and its live status stream, none of the dev tools. */
    @Test
    void servesTheContractAndTheCheckoutPageWithoutDevTools() {
        given().get("/q/openapi?format=json").then().statusCode(200)
                .body("paths", hasKey("/api/orders/{id}/events"))
                .body("paths", not(hasKey("/dev/token")));
        given().get("/checkout/").then().statusCode(200).contentType(containsString("text/html"));
        given().get("/checkout/checkout.js").then().statusCode(200);
        given().get("/q/swagger-ui/").then().statusCode(404);
        given().get("/dev/checkout").then().statusCode(404);
        given().get("/sandbox/alipay").then().statusCode(404);
    }

    @Test
    void theLiveStatusStreamSeesThePayment() {
        long sku = TestDb.newSku(5, "2.00");
        String member = PackagedServiceResource.memberToken("it-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(member, sku, 1);
        String qrCode = Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().path("qrCode");

        try (EventStream stream = EventStream.open("/api/orders/" + orderId + "/events", member)) {
            assertTrue(stream.next(Duration.ofSeconds(5)).data().contains("\"PENDING_PAYMENT\""));
            PackagedServiceResource.sandbox().buyer().pay(qrCode).orElseThrow();
            assertTrue(stream.next(Duration.ofSeconds(15)).data().contains("\"PAID\""));
            assertTrue(stream.endsWithin(Duration.ofSeconds(2)));
        }
    }

    /** The alerts and panels on certificate mode's metrics have their metrics (the in-app suite runs public-key mode). */
    @Test
    void exportsTheCertificatesDaysLeftAndEveryCertificateMetricItsAlertsRead() {
        String metrics = management().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(Monitoring.sampleNames(metrics).containsAll(Monitoring.CERTIFICATE_MODE_ONLY), metrics);
        // The sandbox issues the application's and Alipay's certificates for a year, its root for ten.
        assertEquals(364, Metrics.value("alipay_certificate_days_left{certificate=\"app\"}"), 1);
        assertEquals(364, Metrics.value("alipay_certificate_days_left{certificate=\"alipay\"}"), 1);
        assertEquals(3649, Metrics.value("alipay_certificate_days_left{certificate=\"root\"}"), 1);
    }

    @Test
    void aPaymentWithALostNotifyIsFoundByQuery() {
        long sku = TestDb.newSku(5, "4.00");
        String member = newMember();
        int orderId = place(member, sku, 1);
        String qrCode = qrCode(member, orderId);
        SandboxServer sandbox = PackagedServiceResource.sandbox();
        sandbox.payWithoutNotify(qrCode).orElseThrow();

        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        String orderNo = orderNo(orderId);
        assertEquals(0, sandbox.trades().notifiesSent(orderNo));
        assertTrue(sandbox.trades().calls("alipay.trade.query", orderNo) > 0);
        TestDb.assertStockInvariant(sku, 5);
    }

    /** A scanned trade is closed ({@code alipay.trade.close}); the expiry test voids an unscanned one (cancel). */
    @Test
    void aMemberCancelClosesTheScannedTradeAndAPaymentAfterACloseIsRefunded() {
        long sku = TestDb.newSku(5, "8.00");
        String member = newMember();
        SandboxServer sandbox = PackagedServiceResource.sandbox();
        int cancelled = place(member, sku, 1);
        String scanned = qrCode(member, cancelled);
        sandbox.buyer().scan(scanned).orElseThrow();
        Members.as(member).post("/api/orders/" + cancelled + "/cancel").then().statusCode(200)
                .body("status", equalTo("CLOSED"));
        assertEquals(1, sandbox.trades().calls("alipay.trade.close", orderNo(cancelled)));
        assertEquals(SandboxTradeStatus.TRADE_CLOSED, sandbox.trades().trade(orderNo(cancelled)).orElseThrow().status());
        assertThrows(BuyerActionRefused.class, () -> sandbox.buyer().pay(scanned));

        // The race at the deadline: the order was closed a moment before Alipay took the money.
        int late = place(member, sku, 2);
        String qrCode = qrCode(member, late);
        AnotherInstance.closes(late, "EXPIRED");
        sandbox.buyer().pay(qrCode).orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> "REFUNDED".equals(
                TestDb.scalar("SELECT status FROM payment WHERE order_id = ?", late)));
        assertEquals(0, new BigDecimal("16.00").compareTo(sandbox.trades().trade(orderNo(late)).orElseThrow().refundedAmount()));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    @Test
    void aReissuedAlipayCertificateIsDownloadedCheckedAgainstTheRootAndTrusted() throws Exception {
        SandboxServer sandbox = PackagedServiceResource.sandbox();
        sandbox.faults().alipayCertificate(SandboxFaults.AlipayCertificate.REISSUED);
        long downloads = sandbox.trades().calls(CERTIFICATE_DOWNLOAD, null);
        long sku = TestDb.newSku(5, "4.00");
        String member = newMember();
        int orderId = place(member, sku, 1);

        // The SDK downloads the new certificate to believe the answer, the service once more for its notifies,
        // which Alipay then signs under it.
        sandbox.buyer().pay(qrCode(member, orderId)).orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        assertTrue(sandbox.trades().calls(CERTIFICATE_DOWNLOAD, null) >= downloads + 2, "downloads");
        assertEquals(1, Metrics.value("alipay_certificates_learnt"));
        assertTrue(TestDb.<String> scalar("SELECT payload FROM outbox_event WHERE message_key = ?", orderNo(orderId))
                .contains("\"source\":\"NOTIFY\""));
        assertTrue(Files.readString(LOG).contains("Put the new certificate into ALIPAY_CERT"));
    }

    @Test
    void anAnswerUnderACertificateOfAnotherAuthorityIsRefusedAndChangesNothing() throws Exception {
        long sku = TestDb.newSku(5, "5.00");
        String member = newMember();
        int orderId = place(member, sku, 1);
        double untrusted = Metrics.value("alipay_certificates_untrusted_total");
        PackagedServiceResource.sandbox().faults().alipayCertificate(SandboxFaults.AlipayCertificate.FOREIGN);

        Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(502)
                .contentType("application/problem+json")
                .body("title", equalTo("Payment provider answer not trusted"));
        assertEquals(untrusted + 1, Metrics.value("alipay_certificates_untrusted_total"));
        assertTrue(Files.readString(LOG).lines().anyMatch(line -> line.contains("ERROR") && line.contains("is not trusted")));
        assertEquals("PENDING_PAYMENT", status(member, orderId));
        assertEquals(0L, TestDb.<Long> scalar("SELECT COUNT(*) FROM payment WHERE order_id = ? AND qr_code IS NOT NULL", orderId));

        PackagedServiceResource.sandbox().faults().alipayCertificate(SandboxFaults.AlipayCertificate.ISSUED);
        qrCode(member, orderId);
    }

    @Test
    void aRequestUnderAnApplicationCertificateAlipayNoLongerHoldsIsRefusedWithItsCode() {
        long sku = TestDb.newSku(5, "6.00");
        String member = newMember();
        int orderId = place(member, sku, 1);
        PackagedServiceResource.sandbox().faults().appCertificateRenewed(true);

        Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(502)
                .contentType("application/problem+json")
                .body("title", equalTo("Payment provider refused"))
                .body("providerCode", equalTo("isv.app-cert-sn-not-match"));
        assertEquals("PENDING_PAYMENT", status(member, orderId));
    }

    /** The day's trade bill over HTTPS, its GBK files, the link asked for in certificate mode. */
    @Test
    void aPaidOrderIsRefundedInPartsAnUnknownAnswerIsSettledByTheRefundQueryAndTheBillAgrees() {
        long sku = TestDb.newSku(5, "6.00");
        String member = newMember();
        SandboxServer sandbox = PackagedServiceResource.sandbox();
        int orderId = place(member, sku, 2);
        sandbox.buyer().pay(qrCode(member, orderId)).orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        String admin = PackagedServiceResource.adminToken("support");
        String path = "/api/admin/orders/" + orderId + "/refunds";

        Members.as(admin).header("Idempotency-Key", "it-" + UUID.randomUUID()).contentType(ContentType.JSON)
                .body(Map.of("amount", 5, "reason", "price adjustment", "restock",
                        java.util.List.of(Map.of("skuId", sku, "quantity", 1))))
                .post(path).then().statusCode(201).body("status", equalTo("SUCCEEDED"));
        // Alipay refunds, then answers ACQ.SYSTEM_ERROR: the settler's refund query finds it made.
        sandbox.faults().fail("alipay.trade.refund", MethodFault.systemError().withAfterEffect(), 1);
        int pending = Members.as(admin).header("Idempotency-Key", "it-" + UUID.randomUUID())
                .contentType(ContentType.JSON).body(Map.of("amount", 7)).post(path).then().statusCode(201)
                .body("status", equalTo("PENDING")).extract().path("id");
        await().atMost(Duration.ofSeconds(30)).until(() -> "SUCCEEDED".equals(Members.as(admin)
                .get(path + "/" + pending).then().statusCode(200).extract().path("status")));

        Members.as(member).get("/api/orders/" + orderId).then().statusCode(200).body("status", equalTo("REFUNDED"))
                .body("refundedTotal", equalTo(12.00f)).body("refunds.status", everyItem(equalTo("SUCCEEDED")));
        assertEquals(0, new BigDecimal("12.00").compareTo(sandbox.trades().trade(orderNo(orderId)).orElseThrow()
                .refundedAmount()));
        assertEquals(new TestDb.SkuRow(4, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
        String day = java.time.LocalDate.now(java.time.ZoneId.of("Asia/Shanghai")).toString();
        var report = Members.as(PackagedServiceResource.adminToken("finance")).contentType(ContentType.JSON)
                .body(Map.of("billDate", day)).post("/api/admin/reconciliations").then().statusCode(200)
                .body("run.status", equalTo("DONE")).extract().jsonPath();
        assertEquals(java.util.List.of(),
                report.getList("differences.findAll { it.outTradeNo == '" + orderNo(orderId) + "' }"));
    }

    @Test
    void theDayIsReconciledAgainstAlipaysTradeBill() {
        long sku = TestDb.newSku(5, "7.00");
        String member = newMember();
        int orderId = place(member, sku, 1);
        PackagedServiceResource.sandbox().buyer().pay(qrCode(member, orderId)).orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        String unknown = "NOT-OURS-" + UUID.randomUUID().toString().substring(0, 8);
        PackagedServiceResource.sandbox().faults().bill(new BillFaults(false, null, null,
                java.util.List.of(new BillFaults.Row(unknown, "payment", "5.00", null)), null));

        String day = java.time.LocalDate.now(java.time.ZoneId.of("Asia/Shanghai")).toString();
        var report = Members.as(PackagedServiceResource.adminToken("finance")).contentType(ContentType.JSON)
                .body(Map.of("billDate", day)).post("/api/admin/reconciliations").then().statusCode(200)
                .body("run.status", equalTo("DONE")).extract().jsonPath();
        assertTrue(report.getInt("run.billPayments") >= 2, report.prettify());
        assertEquals(java.util.List.of("UNKNOWN_TRADE"),
                report.getList("differences.findAll { it.outTradeNo == '" + unknown + "' }.kind"));
        assertEquals(java.util.List.of(),
                report.getList("differences.findAll { it.outTradeNo == '" + orderNo(orderId) + "' }"));
        assertTrue(Metrics.value("reconciliation_differences_unsettled{channel=\"alipay\",kind=\"UNKNOWN_TRADE\"}") >= 1);
    }

    /**
     * A checkout is one trace: the storefront's two requests carry its trace context (W3C traceparent), and the
     * payment, which Alipay's notify brings without one, continues the trace that placed the order. The SQL, Redis,
     * RocketMQ and Alipay work of each step is in it, and the timeline tells the same steps with that trace's id.
     */
    @Test
    void aCheckoutIsOneTraceFromPlacementThroughItsQrCodeToThePaymentAndTheTimelineTellsIt() {
        long sku = TestDb.newSku(5, "8.80");
        String member = newMember();
        String traceId = randomHex(32);
        String traceparent = "00-" + traceId + "-" + randomHex(16) + "-01";
        int orderId = Members.as(member).header("traceparent", traceparent).contentType(ContentType.JSON)
                .body(Map.of("items", java.util.List.of(Map.of("skuId", sku, "quantity", 1))))
                .post("/api/orders").then().statusCode(201).extract().path("id");
        String qrCode = Members.as(member).header("traceparent", traceparent).post("/api/orders/" + orderId + "/payment")
                .then().statusCode(200).extract().path("qrCode");
        PackagedServiceResource.sandbox().buyer().pay(qrCode).orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            java.util.List<OtlpReceiver.ReceivedSpan> trace = PackagedServiceResource.traces().trace(traceId);
            assertTrue(trace.stream().anyMatch(span -> span.kind().equals("SPAN_KIND_SERVER")
                    && span.name().contains("/api/orders") && !span.name().contains("payment")), names(trace));
            assertTrue(trace.stream().anyMatch(span -> span.name().equals("order-expiry send")
                    && orderNo(orderId).equals(span.attribute("shop.order.no"))), names(trace));
            assertTrue(trace.stream().anyMatch(span -> span.name().equals("alipay precreate")
                    && "alipay.trade.precreate".equals(span.attribute("rpc.method"))
                    && "success".equals(span.attribute("alipay.outcome"))), names(trace));
            OtlpReceiver.ReceivedSpan confirm = trace.stream().filter(span -> span.name().equals("payment confirm"))
                    .findFirst().orElseThrow(() -> new AssertionError("no payment confirm in " + names(trace)));
            // Linked to the notify's own request, a trace of its own.
            assertEquals(1, confirm.linkedSpanIds().size(), confirm.toString());
            assertTrue(PackagedServiceResource.traces().spans().stream().anyMatch(span -> span.spanId()
                    .equals(confirm.linkedSpanIds().get(0)) && span.name().contains("notify")), "the notify's span");
            assertTrue(trace.stream().anyMatch(span -> span.kind().equals("SPAN_KIND_CLIENT")
                    && span.attributes().keySet().stream().anyMatch(key -> key.startsWith("db."))
                    && String.valueOf(span.attribute("db.system")).contains("redis")), "a Redis command: " + names(trace));
            assertTrue(trace.stream().filter(span -> span.kind().equals("SPAN_KIND_CLIENT")
                    && span.attributes().keySet().stream().anyMatch(key -> key.startsWith("db."))
                    && !String.valueOf(span.attribute("db.system")).contains("redis")).count() >= 3,
                    "SQL statements: " + names(trace));
        });

        // Notes of Alipay calls and notifies, and the broker's confirmation of the expiry message, are written a
        // second or so after the fact (the confirmation later still when the send had to retry another broker).
        var timeline = await().atMost(Duration.ofSeconds(20)).until(() -> timeline(orderId),
                t -> t.getList("entries.kind").containsAll(java.util.List.of("NOTIFY", "EXPIRY_MESSAGE")));
        assertEquals("PAID", timeline.getString("status"));
        assertEquals(traceId, timeline.getString("traceId"));
        java.util.List<String> kinds = timeline.getList("entries.kind");
        assertEquals("PLACED", kinds.get(0), kinds.toString());
        for (String kind : new String[] { "EXPIRY_MESSAGE", "ALIPAY_CALL", "QR_OFFERED", "NOTIFY", "PAID" }) {
            assertTrue(kinds.contains(kind), kind + " in " + kinds);
        }
        assertEquals(java.util.List.of(traceId), timeline.getList("entries.findAll { it.kind == 'PAID' }.traceId"));
        assertEquals(java.util.List.of("NOTIFY"), timeline.getList("entries.findAll { it.kind == 'PAID' }.outcome"));
        assertEquals(0, timeline.getInt("omitted"));
    }

    /**
     * An order left to expire: each check-back is a trace of its own linked to the placing one, and so is the close
     * (the expiry message's consumer), with the close's Alipay call and SQL inside it.
     */
    @Test
    void anExpiredOrdersCheckBacksAndCloseAreLinkedToThePlacingTrace() {
        long sku = TestDb.newSku(5, "2.20");
        String member = newMember();
        String traceId = randomHex(32);
        int orderId = Members.as(member).header("traceparent", "00-" + traceId + "-" + randomHex(16) + "-01")
                .contentType(ContentType.JSON).body(Map.of("items", java.util.List.of(Map.of("skuId", sku, "quantity", 1))))
                .post("/api/orders").then().statusCode(201).extract().path("id");
        String orderNo = orderNo(orderId);
        // A QR code offered: closing the order voids it at Alipay.
        qrCode(member, orderId);
        await().atMost(Duration.ofSeconds(30)).until(() -> "CLOSED".equals(status(member, orderId)));

        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            java.util.List<OtlpReceiver.ReceivedSpan> all = PackagedServiceResource.traces().spans();
            java.util.List<OtlpReceiver.ReceivedSpan> checks = all.stream().filter(span -> span.name().equals(
                    "order-expiry check") && orderNo.equals(span.attribute("shop.order.no"))).toList();
            assertFalse(checks.isEmpty(), "no check-back of " + orderNo);
            for (OtlpReceiver.ReceivedSpan check : checks) {
                assertTrue(check.isRoot(), check.toString());
                assertEquals(java.util.List.of(traceId), check.linkedTraceIds(), check.toString());
            }
            // Committed at the deadline, or (this broker's check limit is short) at the limit just before it, when the
            // consumer finds the deadline passed by the time the message arrives.
            java.util.List<OtlpReceiver.ReceivedSpan> commits = checks.stream()
                    .filter(check -> "COMMIT_MESSAGE".equals(check.attribute("shop.expiry.answer"))).toList();
            assertFalse(commits.isEmpty(), checks.toString());
            commits.forEach(commit -> assertTrue(java.util.List.of("pay deadline passed",
                    "broker's check limit near, renewed by the consumer")
                    .contains(String.valueOf(commit.attribute("shop.expiry.reason"))), commit.toString()));
            // A message committed before the deadline (the broker's check limit near) is renewed, not closed: the
            // close is the consumer span whose trace holds the order's Alipay calls and the SQL of the close.
            java.util.List<OtlpReceiver.ReceivedSpan> processed = all.stream().filter(span -> span.name().equals(
                    "order-expiry process") && orderNo.equals(span.attribute("shop.order.no"))).toList();
            assertFalse(processed.isEmpty(), "no consumer span of " + orderNo);
            processed.forEach(process -> assertEquals(java.util.List.of(traceId), process.linkedTraceIds()));
            java.util.List<OtlpReceiver.ReceivedSpan> close = processed.stream()
                    .map(process -> PackagedServiceResource.traces().trace(process.traceId()))
                    .filter(trace -> trace.stream().anyMatch(span -> span.name().equals("UPDATE orders")))
                    .findFirst().orElseThrow(() -> new AssertionError("no close among " + processed));
            assertTrue(close.stream().anyMatch(span -> span.name().startsWith("alipay ")
                    && orderNo.equals(span.attribute("shop.order.no"))), names(close));
        });

        // Notes (check-backs, Alipay calls) are written in batches a second apart: the check-back's COMMIT may be
        // on the timeline a batch before the close's calls.
        var timeline = await().atMost(Duration.ofSeconds(10)).until(() -> timeline(orderId),
                t -> t.getList("entries.outcome").contains("COMMIT_MESSAGE") && t.getList(
                        "entries.findAll { it.kind == 'ALIPAY_CALL' }.detail").contains("alipay.trade.cancel"));
        assertEquals("EXPIRED", timeline.getString("closeReason"));
        // Never scanned: Alipay has no trade to close, so the QR code is voided.
        java.util.List<String> calls = timeline.getList("entries.findAll { it.kind == 'ALIPAY_CALL' }.detail");
        assertEquals(java.util.List.of("alipay.trade.close", "alipay.trade.cancel"), calls.subList(calls.size() - 2,
                calls.size()), calls.toString());
        assertTrue(timeline.getInt("checkBacks.count") >= 1, timeline.prettify());
        assertEquals(java.util.List.of("EXPIRED"), timeline.getList("entries.findAll { it.kind == 'CLOSED' }.outcome"));
        assertEquals(java.util.List.of("by expiry message"),
                timeline.getList("entries.findAll { it.kind == 'CLOSED' }.detail"));
        assertTrue(timeline.getList("entries.findAll { it.kind == 'CHECK_BACK' }.outcome").contains("COMMIT_MESSAGE"),
                timeline.prettify());
    }

    /** Nothing secret in any span the tests' flows made: keys, signatures, tokens, QR codes, signed links. */
    @Test
    void noSpanAttributeCarriesASecret() {
        long sku = TestDb.newSku(5, "1.10");
        String member = newMember();
        int orderId = place(member, sku, 1);
        var payment = Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().jsonPath();
        String qrCode = payment.getString("qrCode");
        PackagedServiceResource.sandbox().buyer().pay(qrCode).orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        given().get(payment.getString("qrImageUrl")).then().statusCode(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> PackagedServiceResource.traces().spans().stream()
                .anyMatch(span -> span.name().equals("payment confirm") && orderNo(orderId).equals(span.attribute(
                        "shop.order.no"))));
        // The signed link's request is traced, with its query's names only (the link names its channel since there
        // are two).
        await().atMost(Duration.ofSeconds(10)).until(() -> PackagedServiceResource.traces().spans().stream()
                .anyMatch(span -> "channel=?&expires=?&sig=?".equals(span.attribute("url.query"))));

        String privateKey = PackagedServiceResource.sandbox().keys().merchantPrivateKey();
        String token = member;
        String linkSignature = payment.getString("qrImageUrl").replaceAll(".*sig=", "");
        java.util.List<String> leaks = new java.util.ArrayList<>();
        for (OtlpReceiver.ReceivedSpan span : PackagedServiceResource.traces().spans()) {
            span.attributes().forEach((key, value) -> {
                for (String secret : new String[] { privateKey.substring(100, 140), token, qrCode, linkSignature,
                        "sign=", "Bearer", "-----BEGIN" }) {
                    if (value.contains(secret)) {
                        leaks.add(span.name() + " " + key + " = " + value);
                    }
                }
            });
        }
        assertEquals(java.util.List.of(), leaks);
    }

    @Test
    void anOrderIsPaidThroughWechatPayByItsNotify() {
        long sku = TestDb.newSku(5, "7.00");
        String member = newMember();
        int orderId = place(member, sku, 2);
        WechatSandboxServer wechat = PackagedServiceResource.wechatSandbox();
        String codeUrl = wechatCode(member, orderId);
        wechat.pay(codeUrl).orElseThrow();

        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        String outTradeNo = orderNo(orderId) + "W";
        // The packaged service took WeChat's signed, encrypted notify and told WeChat so.
        await().atMost(Duration.ofSeconds(10)).until(() -> wechat.trades().trade(outTradeNo).orElseThrow()
                .notifyAcknowledged());
        WechatTradeView trade = wechat.trades().trade(outTradeNo).orElseThrow();
        assertEquals("SUCCESS", trade.tradeState());
        assertEquals(1400, trade.total());
        assertEquals("NOTIFY", TestDb.scalar("SELECT outcome FROM order_event WHERE order_no = ? AND kind = 'PAID'",
                orderNo(orderId)));
        assertEquals("wechat " + outTradeNo + " PAID 1", TestDb.scalar("SELECT CONCAT(channel, ' ', out_trade_no, ' ',"
                + " status, ' ', accepted) FROM payment WHERE order_id = ? AND channel = 'wechat'", orderId));
        assertEquals(new TestDb.SkuRow(3, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
    }

    /**
     * A WeChat-paid order refunded in two parts through WeChat: the first PROCESSING at WeChat, made by its signed,
     * encrypted refund notify; the second answered 500 after WeChat took it, settled by the refund query without a
     * second refund; then WeChat's trade bill of the day (downloaded, its SHA-1 checked, UTF-8) agrees.
     */
    @Test
    void aWechatPaidOrderIsRefundedInPartsThroughWechatAndItsBillAgrees() {
        long sku = TestDb.newSku(5, "6.00");
        String member = newMember();
        WechatSandboxServer wechat = PackagedServiceResource.wechatSandbox();
        int orderId = place(member, sku, 2);
        wechat.pay(wechatCode(member, orderId)).orElseThrow();
        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        String admin = PackagedServiceResource.adminToken("support");
        String path = "/api/admin/orders/" + orderId + "/refunds";
        String outTradeNo = orderNo(orderId) + "W";

        int first = Members.as(admin).header("Idempotency-Key", "it-" + UUID.randomUUID()).contentType(ContentType.JSON)
                .body(Map.of("amount", 5, "reason", "price adjustment", "channel", "wechat", "restock",
                        java.util.List.of(Map.of("skuId", sku, "quantity", 1))))
                .post(path).then().statusCode(201).body("status", equalTo("PENDING")).extract().path("id");
        await().atMost(Duration.ofSeconds(30)).until(() -> "SUCCEEDED".equals(Members.as(admin)
                .get(path + "/" + first).then().statusCode(200).extract().path("status")));
        // Made by WeChat's refund notify, which the service took (the sandbox records that after the answer).
        await().atMost(Duration.ofSeconds(10)).until(() -> wechat.trades().trade(outTradeNo).orElseThrow().refunds()
                .get(0).notifyAcknowledged());
        // WeChat takes the refund, then answers 500: the settler's refund query finds it, nothing is sent twice.
        wechat.faults().arm("refund", new WechatFaults.Fault(500, "SYSTEM_ERROR", "系统错误", null, true), 1);
        int second = Members.as(admin).header("Idempotency-Key", "it-" + UUID.randomUUID())
                .contentType(ContentType.JSON).body(Map.of("amount", 7)).post(path).then().statusCode(201)
                .body("status", equalTo("PENDING")).extract().path("id");
        await().atMost(Duration.ofSeconds(30)).until(() -> "SUCCEEDED".equals(Members.as(admin)
                .get(path + "/" + second).then().statusCode(200).extract().path("status")));

        Members.as(member).get("/api/orders/" + orderId).then().statusCode(200).body("status", equalTo("REFUNDED"))
                .body("refundedTotal", equalTo(12.00f)).body("refunds.status", everyItem(equalTo("SUCCEEDED")));
        WechatTradeView trade = wechat.trades().trade(outTradeNo).orElseThrow();
        assertEquals(1200, trade.refunded());
        assertEquals(2, trade.refunds().size());
        assertEquals(new TestDb.SkuRow(4, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
        String day = java.time.LocalDate.now(java.time.ZoneId.of("Asia/Shanghai")).toString();
        var report = Members.as(PackagedServiceResource.adminToken("finance")).contentType(ContentType.JSON)
                .body(Map.of("billDate", day, "channel", "wechat")).post("/api/admin/reconciliations").then()
                .statusCode(200).body("run.status", equalTo("DONE")).body("run.channel", equalTo("wechat"))
                .extract().jsonPath();
        assertTrue(report.getInt("run.billPayments") >= 1, report.prettify());
        assertTrue(report.getInt("run.billRefunds") >= 2, report.prettify());
        assertEquals(java.util.List.of(),
                report.getList("differences.findAll { it.outTradeNo == '" + outTradeNo + "' }"));
    }

    @Test
    void aWechatPaymentWhoseNotifyIsLostIsFoundByTheProbe() {
        long sku = TestDb.newSku(5, "4.00");
        String member = newMember();
        int orderId = place(member, sku, 1);
        WechatSandboxServer wechat = PackagedServiceResource.wechatSandbox();
        wechat.payWithoutNotify(wechatCode(member, orderId)).orElseThrow();

        await().atMost(Duration.ofSeconds(15)).until(() -> "PAID".equals(status(member, orderId)));
        String orderNo = orderNo(orderId);
        WechatTradeView trade = wechat.trades().trade(orderNo + "W").orElseThrow();
        assertEquals(0, trade.notifyAttempts());
        assertTrue(wechat.trades().calls("query", orderNo + "W") > 0, "queried");
        assertEquals("QUERY", TestDb.scalar("SELECT outcome FROM order_event WHERE order_no = ? AND kind = 'PAID'",
                orderNo));
        TestDb.assertStockInvariant(sku, 5);
    }

    @Test
    void aMemberCancelClosesTheWechatTradeAndItsCodeIsRefusedAfterwards() {
        long sku = TestDb.newSku(5, "3.00");
        String member = newMember();
        int orderId = place(member, sku, 1);
        String orderNo = orderNo(orderId);
        WechatSandboxServer wechat = PackagedServiceResource.wechatSandbox();
        qrCode(member, orderId);
        String codeUrl = wechatCode(member, orderId);

        Members.as(member).post("/api/orders/" + orderId + "/cancel").then().statusCode(200)
                .body("status", equalTo("CLOSED"));
        assertEquals(1, wechat.trades().calls("close", orderNo + "W"));
        assertEquals("CLOSED", wechat.trades().trade(orderNo + "W").orElseThrow().tradeState());
        assertEquals(SandboxTradeStatus.TRADE_CLOSED,
                PackagedServiceResource.sandbox().trades().trade(orderNo).orElseThrow().status());
        assertThrows(WechatBuyerRefused.class, () -> wechat.pay(codeUrl));
        assertEquals("CLOSED", status(member, orderId));
        assertEquals(0L, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
        assertEquals(new TestDb.SkuRow(5, 0), TestDb.sku(sku));
    }

    /** Both codes of one order paid at the same moment: the order is paid once, the other wallet's money returned. */
    @Test
    void bothWalletsPaidAtOnceKeepOnePaymentAndRefundTheOtherInFullOnce() throws Exception {
        long sku = TestDb.newSku(5, "8.00");
        String member = newMember();
        int orderId = place(member, sku, 2);
        String orderNo = orderNo(orderId);
        SandboxServer alipay = PackagedServiceResource.sandbox();
        WechatSandboxServer wechat = PackagedServiceResource.wechatSandbox();
        String alipayCode = qrCode(member, orderId);
        String wechatCode = wechatCode(member, orderId);

        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CompletableFuture<?> alipayPaid = java.util.concurrent.CompletableFuture.runAsync(() -> {
            awaitLatch(start);
            alipay.buyer().pay(alipayCode).orElseThrow();
        });
        java.util.concurrent.CompletableFuture<?> wechatPaid = java.util.concurrent.CompletableFuture.runAsync(() -> {
            awaitLatch(start);
            wechat.pay(wechatCode).orElseThrow();
        });
        start.countDown();
        java.util.concurrent.CompletableFuture.allOf(alipayPaid, wechatPaid).get(30, java.util.concurrent.TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(20)).until(() -> "PAID".equals(status(member, orderId)));
        await().atMost(Duration.ofSeconds(45)).until(() -> "SUCCEEDED".equals(TestDb.scalar(
                "SELECT MAX(status) FROM refund WHERE order_id = ? AND cause = 'DUPLICATE_PAYMENT'", orderId)));
        String kept = TestDb.scalar("SELECT channel FROM payment WHERE order_id = ? AND accepted", orderId);
        String refunded = kept.equals("alipay") ? "wechat" : "alipay";
        String refundedTrade = refunded.equals("alipay") ? orderNo : orderNo + "W";
        assertEquals(refundedTrade, TestDb.scalar("SELECT out_trade_no FROM refund WHERE order_id = ?", orderId));
        assertEquals("REFUNDED 16.00", TestDb.scalar("SELECT CONCAT(status, ' ', refund_amount) FROM payment"
                + " WHERE order_id = ? AND channel = ?", orderId, refunded));
        assertEquals("PAID", TestDb.scalar("SELECT status FROM payment WHERE order_id = ? AND channel = ?",
                orderId, kept));
        if (refunded.equals("alipay")) {
            assertEquals(0, new BigDecimal("16.00").compareTo(alipay.trades().trade(orderNo).orElseThrow()
                    .refundedAmount()));
        } else {
            WechatTradeView trade = wechat.trades().trade(orderNo + "W").orElseThrow();
            assertEquals("REFUND", trade.tradeState());
            assertEquals(1600, trade.refunded());
            assertEquals(1, trade.refunds().size(), trade.toString());
        }
        // Later words of the wallets (the kept trade's notify, queries) find the refund made: one, and one payment.
        Thread.sleep(3000);
        assertEquals(1L, TestDb.count("SELECT COUNT(*) FROM refund WHERE order_id = ?", orderId));
        assertEquals("PAID", status(member, orderId));
        assertEquals(1L, TestDb.count("SELECT COUNT(*) FROM order_event WHERE order_no = ? AND kind = 'PAID'"
                + " AND outcome = 'DUPLICATE'", orderNo));
        assertEquals(new TestDb.SkuRow(3, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 5);
    }

    private static void awaitLatch(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String wechatCode(String member, int orderId) {
        String codeUrl = Payments.requestQr(member, orderId, "wechat");
        assertTrue(codeUrl.startsWith("weixin://wxpay/bizpayurl?pr="), codeUrl);
        return codeUrl;
    }

    private static String newMember() {
        return PackagedServiceResource.memberToken("it-" + UUID.randomUUID().toString().substring(0, 8));
    }

    private static String randomHex(int digits) {
        StringBuilder hex = new StringBuilder();
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        while (hex.length() < digits) {
            hex.append(Long.toHexString(random.nextLong() | Long.MIN_VALUE));
        }
        return hex.substring(0, digits);
    }

    private static io.restassured.path.json.JsonPath timeline(int orderId) {
        return Members.as(PackagedServiceResource.adminToken("ops")).get("/api/admin/orders/" + orderId + "/timeline")
                .then().statusCode(200).extract().jsonPath();
    }

    private static String names(java.util.List<OtlpReceiver.ReceivedSpan> spans) {
        return spans.stream().map(span -> span.name() + span.attributes()).toList().toString();
    }

    private static String qrCode(String member, int orderId) {
        return Members.as(member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().path("qrCode");
    }

    private static String orderNo(int orderId) {
        return TestDb.scalar("SELECT order_no FROM orders WHERE id = ?", orderId);
    }

    private static int place(String member, long sku, int quantity) {
        return Members.as(member).contentType(ContentType.JSON).body(Map.of("items",
                java.util.List.of(Map.of("skuId", sku, "quantity", quantity))))
                .post("/api/orders").then().statusCode(201).extract().path("id");
    }

    private static String status(String member, int orderId) {
        return Members.as(member).get("/api/orders/" + orderId).then().statusCode(200).extract().path("status");
    }
}
