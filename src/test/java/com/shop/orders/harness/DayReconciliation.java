package com.shop.orders.harness;

import static io.restassured.RestAssured.given;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * The end of a fault scenario: the day is reconciled against each wallet sandbox's trade bill through the services'
 * admin API. Every difference found since the scenario began is a violation (the scenarios inject no bill faults), and
 * so is a run that did not complete.
 */
final class DayReconciliation {

    private static final ZoneId ALIPAY_DAY = ZoneId.of("Asia/Shanghai");
    /** The stack's replicas take payments on both wallets, and reconcile each one's bill. */
    private static final List<String> CHANNELS = List.of(WalletTrade.ALIPAY, WalletTrade.WECHAT);

    private DayReconciliation() {
    }

    /**
     * The replicas' own daily job: every day of the week before whose bill was due ({@code bills-from}, 09:30 China
     * time, the day after) has been reconciled on each channel, each by one claim of one replica (three started at
     * once).
     */
    static List<String> pastDaysNotReconciledOnce(ServiceStack stack) throws SQLException {
        Instant now = Instant.now();
        LocalDate today = LocalDate.now(ALIPAY_DAY);
        List<String> violations = new ArrayList<>();
        try (Connection connection = stack.connect();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT status, attempts, channel FROM reconciliation_run WHERE bill_date = ?")) {
            for (LocalDate day = today.minusDays(7); day.isBefore(today); day = day.plusDays(1)) {
                if (day.plusDays(1).atTime(9, 30).atZone(ALIPAY_DAY).toInstant().isAfter(now)) {
                    continue;
                }
                query.setObject(1, day);
                // A run per channel's bill.
                try (ResultSet row = query.executeQuery()) {
                    Set<String> reconciled = new TreeSet<>();
                    while (row.next()) {
                        reconciled.add(row.getString(3));
                        if (!"DONE".equals(row.getString(1)) || row.getInt(2) != 1) {
                            violations.add(day + " (" + row.getString(3) + "): " + row.getString(1) + " after "
                                    + row.getInt(2) + " claims, not DONE after one");
                        }
                    }
                    for (String channel : CHANNELS) {
                        if (!reconciled.contains(channel)) {
                            violations.add(day + " (" + channel + ") was never reconciled by the replicas' job");
                        }
                    }
                }
            }
        }
        return violations;
    }

    /** Reconciles each channel's days from {@code since} to now (one, or two across midnight, China time). */
    static List<String> violationsSince(ServiceStack stack, Instant since) {
        Set<LocalDate> days = new TreeSet<>(List.of(LocalDate.ofInstant(since, ALIPAY_DAY), LocalDate.now(ALIPAY_DAY)));
        String admin = stack.tokens().adminToken("fault-suite-finance");
        List<String> violations = new ArrayList<>();
        for (LocalDate day : days) {
            for (String channel : CHANNELS) {
                String run = day + " (" + channel + ")";
                JsonPath report = given().baseUri(stack.apiUrl()).auth().oauth2(admin).contentType(ContentType.JSON)
                        .body(Map.of("billDate", day.toString(), "channel", channel))
                        .post("/api/admin/reconciliations").then().statusCode(200).extract().jsonPath();
                if (!"DONE".equals(report.getString("run.status"))) {
                    violations.add("reconciliation of " + run + " " + report.getString("run.status") + ": "
                            + report.getString("run.lastError"));
                }
                List<Map<String, Object>> differences = report.getList("differences");
                for (Map<String, Object> difference : differences) {
                    if (!Instant.parse((String) difference.get("foundAt")).isBefore(since)) {
                        violations.add("reconciliation of " + run + ": " + difference.get("kind") + " "
                                + difference.get("outTradeNo") + ": " + difference.get("detail"));
                    }
                }
            }
        }
        return violations;
    }
}
