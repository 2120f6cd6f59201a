package com.shop.orders.bench.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.csv;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import java.util.concurrent.ThreadLocalRandom;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;

/**
 * Open model: new orders arrive at a fixed rate whatever the answers, so slow answers show as latency
 * instead of being hidden by fewer requests (coordinated omission). Each order has one line for a random
 * SKU in [skuFrom, skuTo]; a share of them ({@code payShare}) is offered a QR code and paid through the
 * sandbox's buyer, whose notify the benchmark may have told the sandbox to drop. A warm-up at the same rate comes
 * first ({@code warmUpSeconds}, requests named "warm-up ..."): this JVM's and the service's first seconds are not
 * the figure.
 */
public class PlaceOrdersAtFixedRate extends Simulation {

    private final String baseUrl = Settings.text("baseUrl");
    private final String sandboxUrl = Settings.text("sandboxUrl");
    private final double rate = Settings.decimal("rate");
    private final int seconds = Settings.number("seconds");
    private final long skuFrom = Settings.number("skuFrom");
    private final long skuTo = Settings.number("skuTo");
    private final double payShare = Settings.decimal("payShare");

    private final HttpProtocolBuilder protocol = http.baseUrl(baseUrl).contentTypeHeader("application/json")
            .shareConnections();

    private final int warmUpSeconds = Settings.number("warmUpSeconds");

    /** The same orders under other request names during the warm-up, so that the report keeps them apart. */
    private ScenarioBuilder orders(String prefix) {
        return scenario(prefix + "place")
            .feed(csv(Settings.text("tokens")).circular())
            .exec(session -> session.set("skuId", ThreadLocalRandom.current().nextLong(skuFrom, skuTo + 1))
                    .set("pay", ThreadLocalRandom.current().nextDouble() < payShare))
            .exec(http(prefix + "place").post("/api/orders").header("Authorization", "Bearer #{token}")
                    .body(StringBody("{\"items\":[{\"skuId\":#{skuId},\"quantity\":1}]}"))
                    .check(status().in(201, 409))
                    .check(jsonPath("$.id").optional().saveAs("orderId")))
            // A buyer may come too late: an order closed meanwhile is not offered (409), a closed trade not paid (409).
            .doIf(session -> session.getBoolean("pay") && session.contains("orderId")).then(
                    exec(http(prefix + "offer").post("/api/orders/#{orderId}/payment")
                            .header("Authorization", "Bearer #{token}")
                            .check(status().in(200, 409))
                            .check(jsonPath("$.qrCode").optional().saveAs("qrCode")))
                            .doIf(session -> session.contains("qrCode")).then(
                                    exec(http(prefix + "pay").post(sandboxUrl + "/buyer/pay")
                                            .body(StringBody("{\"qrCode\":\"#{qrCode}\"}"))
                                            .check(status().in(200, 409)))));
    }

    {
        PopulationBuilder measured = orders("").injectOpen(constantUsersPerSec(rate).during(seconds));
        setUp(warmUpSeconds > 0
                ? orders("warm-up ").injectOpen(constantUsersPerSec(rate).during(warmUpSeconds)).andThen(measured)
                : measured).protocols(protocol);
    }
}
