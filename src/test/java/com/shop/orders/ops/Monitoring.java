package com.shop.orders.ops;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

/** The queries of the Grafana dashboard and the alert rules, as operators will run them. */
public final class Monitoring {

    /**
     * Metrics of Alipay's certificate mode, exported only while the app signs with certificates: checked against the
     * packaged service in that mode ({@code PackagedServiceIT}), every other metric of the rules and the dashboard
     * against the in-app suite's ({@link MonitoredMetricsTest}).
     */
    public static final Set<String> CERTIFICATE_MODE_ONLY = Set.of("alipay_certificate_days_left", "alipay_certificates_learnt");

    private Monitoring() {
    }

    /** The sample names of a Prometheus exposition (name without labels, comments left out). */
    public static Set<String> sampleNames(String exposition) {
        Set<String> names = new TreeSet<>();
        exposition.lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0])
                .forEach(names::add);
        return names;
    }

    /** The alert rules' source: the PrometheusRule's groups. */
    static JsonNode ruleGroups() {
        return Manifests.in(Manifests.KUBERNETES).one("PrometheusRule").tree().path("spec").path("groups");
    }

    /** Every rule's expression by its alert (or recorded) name. */
    static Map<String, String> ruleExpressions() {
        Map<String, String> expressions = new LinkedHashMap<>();
        for (JsonNode group : ruleGroups()) {
            for (JsonNode rule : group.path("rules")) {
                String name = rule.has("alert") ? rule.path("alert").asText() : rule.path("record").asText();
                expressions.put(name, rule.path("expr").asText());
            }
        }
        return expressions;
    }

    /** "panel title: expression" for every query of the dashboard, rows' nested panels included. */
    static List<String> dashboardQueries() {
        JsonNode dashboard = Manifests.readJson(Manifests.DASHBOARD);
        List<String> queries = new ArrayList<>();
        collectPanelQueries(dashboard.path("panels"), queries);
        return queries;
    }

    /** The queries of the dashboard's query variables, such as {@code label_values(metric, label)}. */
    static List<String> dashboardVariableQueries() {
        JsonNode dashboard = Manifests.readJson(Manifests.DASHBOARD);
        List<String> queries = new ArrayList<>();
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asText().equals("query")) {
                JsonNode query = variable.path("query");
                queries.add(query.isObject() ? query.path("query").asText() : query.asText());
            }
        }
        return queries;
    }

    /** The metric names the dashboard reads, its variables' queries included. */
    static Set<String> dashboardMetricNames() {
        Set<String> names = new TreeSet<>();
        dashboardQueries().forEach(query -> names.addAll(PromQl.metricNames(expression(query))));
        dashboardVariableQueries().forEach(query -> names.addAll(PromQl.metricNamesOfVariableQuery(query)));
        return names;
    }

    /** The expression of a "panel title: expression" query. */
    static String expression(String query) {
        return query.substring(query.indexOf(": ") + 2);
    }

    /** The panel title of a "panel title: expression" query. */
    static String panel(String query) {
        return query.substring(0, query.indexOf(": "));
    }

    private static void collectPanelQueries(JsonNode panels, List<String> queries) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(panel.path("title").asText() + ": " + target.path("expr").asText());
            }
            collectPanelQueries(panel.path("panels"), queries);
        }
    }
}
