package com.shop.orders.bench.gatling;

import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.csv;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * Alipay's notifies arriving at a fixed rate (open model). Each body is a notify the benchmark signed with
 * the sandbox's Alipay key for an order waiting for payment; the service must answer "success" after the
 * order is PAID, so the response time is the time from notify to PAID.
 */
public class NotifyAtFixedRate extends Simulation {

    private final ScenarioBuilder notifies = scenario("notify")
            .feed(csv(Settings.text("notifies")).queue())
            .exec(http("notify").post("/api/payments/alipay/notify")
                    .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                    .body(StringBody("#{body}"))
                    .check(status().is(200))
                    .check(bodyString().is("success")));

    {
        setUp(notifies.injectOpen(constantUsersPerSec(Settings.decimal("rate")).during(Settings.number("seconds"))))
                .protocols(http.baseUrl(Settings.text("baseUrl")).shareConnections());
    }
}
