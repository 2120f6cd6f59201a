package com.shop.orders.harness;

import static io.restassured.RestAssured.given;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;

/**
 * The end of a fault scenario: the day is reconciled against the sandbox's trade bill through the services' admin
 * API. Every difference found since the scenario began is a violation (the scenarios inject no bill faults), and
 * so is a run that did not complete.
 */
final class DayReconciliation {

    private static final ZoneId ALIPAY_DAY = ZoneId.of("Asia/Shanghai");

    private DayReconciliation() {
    }

    /** Reconciles the Alipay days from {@code since} to now (one, or two across midnight, China time). */
    static List<String> violationsSince(ServiceStack stack, Instant since) {
        Set<LocalDate> days = new TreeSet<>(List.of(LocalDate.ofInstant(since, ALIPAY_DAY), LocalDate.now(ALIPAY_DAY)));
        String admin = stack.tokens().adminToken("fault-suite-finance");
        List<String> violations = new ArrayList<>();
        for (LocalDate day : days) {
            JsonPath report = given().baseUri(stack.apiUrl()).auth().oauth2(admin).contentType(ContentType.JSON)
                    .body(Map.of("billDate", day.toString())).post("/api/admin/reconciliations")
                    .then().statusCode(200).extract().jsonPath();
            if (!"DONE".equals(report.getString("run.status"))) {
                violations.add("reconciliation of " + day + " " + report.getString("run.status") + ": "
                        + report.getString("run.lastError"));
            }
            List<Map<String, Object>> differences = report.getList("differences");
            for (Map<String, Object> difference : differences) {
                if (!Instant.parse((String) difference.get("foundAt")).isBefore(since)) {
                    violations.add("reconciliation of " + day + ": " + difference.get("kind") + " "
                            + difference.get("outTradeNo") + ": " + difference.get("detail"));
                }
            }
        }
        return violations;
    }
}
