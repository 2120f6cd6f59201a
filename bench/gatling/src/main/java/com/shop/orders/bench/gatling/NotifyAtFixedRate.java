package com.shop.orders.bench.gatling;

import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.csv;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;

/**
 * Alipay's notifies arriving at a fixed rate (open model). Each body is a notify the benchmark signed with
 * the sandbox's Alipay key for an order waiting for payment; the service must answer "success" after the
 * order is PAID, so the response time is the time from notify to PAID. A warm-up at the same rate, for other
 * orders ({@code warmUpNotifies}, requests named "warm-up notify"), comes first.
 */
public class NotifyAtFixedRate extends Simulation {

    private static ScenarioBuilder notifies(String name, String file) {
        return scenario(name)
                .feed(csv(file).queue())
                .exec(http(name).post("/api/payments/alipay/notify")
                        .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                        .body(StringBody("#{body}"))
                        .check(status().is(200))
                        .check(bodyString().is("success")));
    }

    {
        double rate = Settings.decimal("rate");
        int warmUpSeconds = Settings.number("warmUpSeconds");
        PopulationBuilder measured = notifies("notify", Settings.text("notifies"))
                .injectOpen(constantUsersPerSec(rate).during(Settings.number("seconds")));
        setUp(warmUpSeconds > 0
                ? notifies("warm-up notify", Settings.text("warmUpNotifies"))
                        .injectOpen(constantUsersPerSec(rate).during(warmUpSeconds)).andThen(measured)
                : measured).protocols(http.baseUrl(Settings.text("baseUrl")).shareConnections());
    }
}
