package com.shop.orders;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.rocketmq.acl.common.SessionCredentials;
import org.apache.rocketmq.client.exception.MQBrokerException;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.harness.ServiceStack;
import com.shop.orders.testsupport.PaidEvents;
import com.shop.orders.testsupport.TestTls;
import com.shop.orders.testsupport.Timings;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;

/**
 * The packaged service (the jar, or the native executable with {@code -Dnative}) as production runs it, against
 * servers that demand it, each started by the test on its own ports: MariaDB serving TLS only
 * ({@code require_secure_transport}) with the schema's owner and the service's DML-only user, the migrations run
 * before as the owner; Redis serving TLS only, without a default user, the service's ACL user; RocketMQ's name server
 * and broker serving TLS only, with ACL 2.0 authentication and authorization, the service's user granted its topics
 * and group ({@link ServiceStack#startSecured}). The service refuses anything less ({@code REQUIRE_TLS}).
 *
 * <p>Orders are placed, paid and expired through check-backs; a downstream consumer receives the paid event. Then
 * what breaks: a wrong broker secret, a broker user without rights on the expiry topic, a wrong Redis password, a
 * wrong database password, a database certificate of another authority. Each makes its dependency DOWN with a log line
 * that names it and the cause and no secret, the process keeps running, and no order is lost: the sweep closes what
 * the watch could not.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecuredConnectionsIT {

    private static final Path DIR = Path.of("target", "secured-connections");
    private static final Timings TIMINGS = Timings.ci();
    private static final String LISTENER = "paid-listener";
    private static final String LISTENER_PASSWORD = "listener-test-only-password";
    private static final String LIMITED_USER = "order-service-limited";
    private static final String LIMITED_PASSWORD = "limited-test-only-password";
    private static final String WRONG_SECRET = "wrong-broker-secret-do-not-log";
    private static final String WRONG_REDIS_PASSWORD = "wrong-redis-password-do-not-log";
    private static final String WRONG_DB_PASSWORD = "wrong-database-password-do-not-log";

    private static ServiceStack stack;
    private static PaidEvents paidEvents;

    @BeforeAll
    static void startSecuredStack() throws Exception {
        deleteRecursively(DIR);
        stack = ServiceStack.startSecured(DIR, 1, TIMINGS, Map.of());
        // A downstream consumer of the paid events, a user of its own with the right to read them only.
        stack.rocketMq().addUser(LISTENER, LISTENER_PASSWORD, "Topic:" + ServiceStack.PAID_TOPIC + "=Sub",
                "Group:paid-listener-*=Sub");
        paidEvents = PaidEvents.listenAs(new SessionCredentials(LISTENER, LISTENER_PASSWORD),
                stack.rocketMq().nameServerAddress(), ServiceStack.PAID_TOPIC);
    }

    @AfterAll
    static void stopStack() {
        if (paidEvents != null) {
            paidEvents.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    @Order(1)
    void readyWithEveryDependencyReachedOverTlsAsItsOwnUser() {
        ServiceProcess service = stack.replicas().get(0);
        given().get(service.managementUrl() + "/q/health/ready").then().statusCode(200);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> given()
                .get(service.managementUrl() + "/q/health/group/dependencies").then().statusCode(200)
                .body("checks[0].data.redis", equalTo("UP")).body("checks[0].data.rocketmq", equalTo("UP")));
        assertEquals(1.0, service.metric("shop_dependency_up", "dependency", "database"));
        assertTrue(stack.migrationTime().compareTo(Duration.ZERO) > 0, "the migrations ran before, as the owner");
    }

    @Test
    @Order(2)
    void anOrderIsPaidAndItsEventConsumed() {
        long sku = stack.createSku(5, "12.50");
        String member = stack.tokens().token("secured-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(stack.apiUrl(), member, sku);
        String qrCode = as(stack.apiUrl(), member).post("/api/orders/" + orderId + "/payment").then().statusCode(200)
                .extract().path("qrCode");
        stack.sandbox().buyer().pay(qrCode).orElseThrow();

        await().atMost(Duration.ofSeconds(20)).until(() -> "PAID".equals(order(stack.apiUrl(), member, orderId)
                .getString("status")));
        String orderNo = order(stack.apiUrl(), member, orderId).getString("orderNo");
        await().atMost(Duration.ofSeconds(20)).until(() -> paidEvents.count(orderNo + " ") == 1);
    }

    @Test
    @Order(3)
    void anUnpaidOrderExpiresThroughTheCheckBacks() {
        long sku = stack.createSku(5, "3.00");
        String member = stack.tokens().token("secured-" + UUID.randomUUID().toString().substring(0, 8));
        int orderId = place(stack.apiUrl(), member, sku);
        as(stack.apiUrl(), member).post("/api/orders/" + orderId + "/payment").then().statusCode(200);

        JsonPath timeline = await().atMost(TIMINGS.payTimeout().plus(Duration.ofSeconds(30)))
                .until(() -> timeline(stack.apiUrl(), orderId), t -> t.getList("entries.kind").contains("CLOSED")
                        && t.getList("entries.outcome").contains("COMMIT_MESSAGE"));
        assertEquals(List.of("by expiry message"), timeline.getList("entries.findAll { it.kind == 'CLOSED' }.detail"),
                timeline.prettify());
    }

    @Test
    @Order(4)
    void theServicesDatabaseUserCannotChangeTheSchema() throws SQLException {
        try (Connection service = stack.mariaDb().connect(ServiceStack.DATABASE, ServiceStack.DB_SERVICE_USER,
                ServiceStack.DB_SERVICE_PASSWORD); Statement st = service.createStatement()) {
            st.executeQuery("SELECT COUNT(*) FROM orders").close();
            for (String ddl : List.of("DROP TABLE order_event", "ALTER TABLE orders ADD COLUMN intruder INT",
                    "CREATE TABLE intruder (id INT)", "TRUNCATE TABLE order_event", "GRANT SELECT ON orders.* TO "
                            + "'" + ServiceStack.DB_SERVICE_USER + "'@'%'")) {
                SQLException refused = assertThrows(SQLException.class, () -> st.execute(ddl), ddl);
                assertTrue(refused.getMessage().contains("denied"), ddl + ": " + refused.getMessage());
            }
        }
        // Nor can anyone reach it without TLS.
        assertThrows(SQLException.class, () -> java.sql.DriverManager.getConnection(
                stack.mariaDb().jdbcUrl(ServiceStack.DATABASE) + "?sslMode=disable&connectTimeout=3000",
                ServiceStack.DB_SERVICE_USER, ServiceStack.DB_SERVICE_PASSWORD).close());
    }

    @Test
    @Order(5)
    void theBrokerRefusesAPublisherWithoutCredentials() throws Exception {
        DefaultMQProducer anonymous = new DefaultMQProducer("anonymous-" + UUID.randomUUID());
        anonymous.setNamesrvAddr(stack.rocketMq().nameServerAddress());
        anonymous.setInstanceName("anonymous-" + UUID.randomUUID());
        anonymous.setUseTLS(true);
        anonymous.setRetryTimesWhenSendFailed(0);
        anonymous.start();
        try {
            for (String topic : List.of(ServiceStack.EXPIRY_TOPIC, ServiceStack.PAID_TOPIC)) {
                Exception refused = assertThrows(Exception.class,
                        () -> anonymous.send(new Message(topic, "forged".getBytes())), topic);
                MQBrokerException broker = cause(refused, MQBrokerException.class);
                assertNotNull(broker, topic + ": " + refused);
                assertEquals(16, broker.getResponseCode(), topic + ": " + broker);
            }
        } finally {
            anonymous.shutdown();
        }
    }

    /**
     * A wrong broker secret (with a wrong Redis password), and a broker user without the right to publish expiry
     * messages: the service runs on, each dependency DOWN with its cause, and the sweep closes the orders whose watch
     * could not start. The stack's own service is stopped first, so that only these two serve (and sweep).
     */
    @Test
    @Order(6)
    void refusedBrokerAndRedisCredentialsLeaveTheOrdersToTheSweep() throws Exception {
        stack.replicas().get(0).close();
        stack.rocketMq().addUser(LIMITED_USER, LIMITED_PASSWORD,
                ServiceStack.BROKER_GRANTS.stream().filter(grant -> !grant.startsWith("Topic:"
                        + ServiceStack.EXPIRY_TOPIC)).toArray(String[]::new));
        try (ServiceProcess wrongSecret = stack.outsideFront("wrong-secret", Map.of(
                "shop.rocketmq.secret-key", WRONG_SECRET, "shop.connections.redis.password", WRONG_REDIS_PASSWORD));
                ServiceProcess limited = stack.outsideFront("limited-user", Map.of(
                        "shop.rocketmq.access-key", LIMITED_USER, "shop.rocketmq.secret-key", LIMITED_PASSWORD))) {
            wrongSecret.spawn();
            limited.spawn();
            wrongSecret.awaitReady();
            limited.awaitReady();
            int refusedOrder = placeUnpaid(wrongSecret);
            int limitedOrder = placeUnpaid(limited);

            awaitDependency(wrongSecret, "rocketmq", "check signature failed");
            awaitDependency(wrongSecret, "redis", "WRONGPASS");
            awaitDependency(limited, "rocketmq", "publish to " + ServiceStack.EXPIRY_TOPIC + " refused: User:"
                    + LIMITED_USER + " has no permission to access Topic:" + ServiceStack.EXPIRY_TOPIC);
            assertLogged(wrongSecret, "rocketmq is not usable", "check signature failed");
            assertLogged(wrongSecret, "redis is not usable", "WRONGPASS");
            assertLogged(limited, "rocketmq is not usable", "no permission to access Topic:" + ServiceStack.EXPIRY_TOPIC);

            Duration bound = TIMINGS.payTimeout().plus(TIMINGS.sweepBound()).plus(Duration.ofSeconds(20));
            for (var closed : List.of(Map.entry(wrongSecret, refusedOrder), Map.entry(limited, limitedOrder))) {
                JsonPath timeline = await().atMost(bound).until(() -> timeline(closed.getKey().apiUrl(),
                        closed.getValue()), t -> t.getList("entries.kind").contains("CLOSED"));
                assertEquals(List.of("by sweep"), timeline.getList("entries.findAll { it.kind == 'CLOSED' }.detail"),
                        timeline.prettify());
            }
            for (ServiceProcess service : List.of(wrongSecret, limited)) {
                assertTrue(service.isAlive(), service + " exited");
                assertEquals(1, service.starts());
                assertNoSecretLogged(service);
            }
        }
    }

    /**
     * A wrong database password, and a database certificate the service does not trust (its authority is another):
     * the process runs on, live and unready, readiness says why, and so does one log line.
     */
    @Test
    @Order(7)
    void aRefusedOrUntrustedDatabaseLeavesTheServiceUnreadyWithItsCause() throws Exception {
        TestTls otherAuthority = TestTls.generate(DIR.resolve("other-authority"));
        try (ServiceProcess wrongPassword = stack.outsideFront("wrong-db-password", Map.of(
                "quarkus.datasource.password", WRONG_DB_PASSWORD));
                ServiceProcess untrusted = stack.outsideFront("untrusted-db-certificate", Map.of(
                        "shop.connections.database.ca-path", otherAuthority.caPem().toString()))) {
            wrongPassword.spawn();
            untrusted.spawn();
            // The other authority bears the same name as the servers': the path is found, its signature fails.
            for (var failing : List.of(Map.entry(wrongPassword, List.of("Access denied for user '"
                    + ServiceStack.DB_SERVICE_USER + "'", "Access denied for user '" + ServiceStack.DB_SERVICE_USER)),
                    // (JDK 25's message, the executable's, puts the alert first: "(bad_certificate) PKIX ...")
                    Map.entry(untrusted, List.of("PKIX path validation failed", "PKIX path validation failed")))) {
                ServiceProcess service = failing.getKey();
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> given()
                        .get(service.managementUrl() + "/q/health/ready").then().statusCode(503)
                        .body(containsString(failing.getValue().get(0))));
                given().get(service.managementUrl() + "/q/health/live").then().statusCode(200);
                String line = service == untrusted ? "database is not usable: TLS handshake failed"
                        : "database is not usable";
                assertLogged(service, line, failing.getValue().get(1));
                assertTrue(service.isAlive(), service + " exited");
                assertNoSecretLogged(service);
            }
        }
    }

    private static void awaitDependency(ServiceProcess service, String dependency, String cause) {
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> given()
                .get(service.managementUrl() + "/q/health/group/dependencies").then().statusCode(503)
                .body("checks[0].data." + dependency, containsString(cause)));
    }

    private static void assertLogged(ServiceProcess service, String line, String cause) throws IOException {
        await().atMost(Duration.ofSeconds(20)).until(() -> logLines(service).anyMatch(
                l -> l.contains(line) && l.contains(cause)));
    }

    private static void assertNoSecretLogged(ServiceProcess service) throws IOException {
        for (String secret : List.of(WRONG_SECRET, WRONG_REDIS_PASSWORD, WRONG_DB_PASSWORD, LIMITED_PASSWORD,
                ServiceStack.DB_SERVICE_PASSWORD, ServiceStack.REDIS_PASSWORD, ServiceStack.BROKER_PASSWORD)) {
            assertFalse(Files.readString(service.log()).contains(secret), service + " logged a secret");
        }
    }

    private static Stream<String> logLines(ServiceProcess service) throws IOException {
        return Files.readAllLines(service.log()).stream();
    }

    private static int placeUnpaid(ServiceProcess service) {
        long sku = stack.createSku(5, "2.00");
        String member = stack.tokens().token("secured-" + UUID.randomUUID().toString().substring(0, 8));
        return place(service.apiUrl(), member, sku);
    }

    private static int place(String apiUrl, String member, long sku) {
        return as(apiUrl, member).contentType(ContentType.JSON)
                .body(Map.of("items", List.of(Map.of("skuId", sku, "quantity", 1))))
                .post("/api/orders").then().statusCode(201).extract().path("id");
    }

    private static JsonPath order(String apiUrl, String member, int orderId) {
        return as(apiUrl, member).get("/api/orders/" + orderId).then().statusCode(200).extract().jsonPath();
    }

    private static JsonPath timeline(String apiUrl, int orderId) {
        return as(apiUrl, stack.tokens().adminToken("ops")).get("/api/admin/orders/" + orderId + "/timeline")
                .then().statusCode(200).extract().jsonPath();
    }

    private static RequestSpecification as(String apiUrl, String token) {
        return given().baseUri(apiUrl).auth().oauth2(token);
    }

    private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
