package com.shop.orders.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** The Grafana dashboard imports anywhere and shows what the operators asked for. */
class DashboardTest {

    private static final JsonNode DASHBOARD = Manifests.readJson(Manifests.DASHBOARD);
    private static final String DATASOURCE = "${DS_PROMETHEUS}";

    @Test
    void theDataSourceIsChosenAtImport() {
        JsonNode variable = variable("DS_PROMETHEUS");
        assertEquals("datasource", variable.path("type").asText());
        assertEquals("prometheus", variable.path("query").asText());
        List<String> fixed = new ArrayList<>();
        for (JsonNode panel : panels()) {
            if (!panel.path("type").asText().equals("row")) {
                checkDataSource(panel.path("title").asText(), panel.path("datasource"), fixed);
                panel.path("targets").forEach(target -> checkDataSource(panel.path("title").asText(),
                        target.path("datasource"), fixed));
            }
        }
        DASHBOARD.path("templating").path("list").forEach(v -> {
            if (v.path("type").asText().equals("query")) {
                checkDataSource("variable " + v.path("name").asText(), v.path("datasource"), fixed);
            }
        });
        assertEquals(List.of(), fixed);
    }

    @Test
    void showsWhatOperatorsAskedFor() {
        Set<String> shown = Monitoring.dashboardMetricNames();
        Set<String> wanted = new TreeSet<>(Set.of(
                "orders_placed_total", "orders_paid_total", "orders_closed_total",
                "orders_placement_seconds_bucket", "orders_close_lateness_seconds_bucket",
                "payments_notify_total", "payments_lost_notify_detection_seconds_bucket",
                "expiry_checks_seconds_count", "expiry_checks_seconds_sum", "expiry_checks_failures_total",
                "alipay_calls_seconds_count", "outbox_backlog", "expiry_consumer_retries_total",
                "expiry_sweep_closed_total", "shop_dependency_up", "bulkhead_active", "bulkhead_queued"));
        wanted.removeAll(shown);
        assertEquals(Set.of(), wanted);
    }

    @Test
    void panelsHaveUniqueIdsAndDoNotOverlap() {
        Set<Integer> ids = new HashSet<>();
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode panel : panels()) {
            assertTrue(ids.add(panel.path("id").asInt()), "duplicate panel id " + panel.path("id"));
            JsonNode pos = panel.path("gridPos");
            int[] box = { pos.path("x").asInt(), pos.path("y").asInt(), pos.path("w").asInt(), pos.path("h").asInt() };
            assertTrue(box[0] + box[2] <= 24, panel.path("title") + " is wider than the grid");
            for (int[] other : boxes) {
                boolean apart = box[0] + box[2] <= other[0] || other[0] + other[2] <= box[0]
                        || box[1] + box[3] <= other[1] || other[1] + other[3] <= box[1];
                assertTrue(apart, panel.path("title") + " overlaps another panel");
            }
            boxes.add(box);
        }
    }

    private static List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        DASHBOARD.path("panels").forEach(panels::add);
        return panels;
    }

    private static JsonNode variable(String name) {
        for (JsonNode variable : DASHBOARD.path("templating").path("list")) {
            if (variable.path("name").asText().equals(name)) {
                return variable;
            }
        }
        throw new AssertionError("no variable " + name);
    }

    private static void checkDataSource(String where, JsonNode datasource, List<String> fixed) {
        if (!DATASOURCE.equals(datasource.path("uid").asText())) {
            fixed.add(where + ": " + datasource);
        }
    }
}
