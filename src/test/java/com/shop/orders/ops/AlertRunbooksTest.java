package com.shop.orders.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/** Every alert leads to its runbook, and every runbook belongs to an alert: one section of docs/operations.md each. */
class AlertRunbooksTest {

    /**
     * Where runbook_url points. The repository names no public address (pom.xml has no url or scm, and no file names
     * where it is hosted), so the URL is a path from the repository's root: whoever hosts it prefixes that host's
     * address, in Alertmanager's templates for instance. Relative, it resolves against this checkout as well.
     */
    static final Path RUNBOOKS = Path.of("docs", "operations.md");

    @Test
    void everyAlertHasARunbookUrlLeadingToItsOwnSection() {
        Set<String> anchors = Markdown.anchors(Markdown.read(RUNBOOKS));
        List<String> problems = new ArrayList<>();
        alertsByFile().forEach((file, alerts) -> alerts.forEach((alert, url) -> {
            String expected = RUNBOOKS.toString().replace('\\', '/') + "#" + Markdown.anchor(alert);
            if (url == null || url.isBlank()) {
                problems.add(file + ": " + alert + " has no runbook_url");
            } else if (!url.equals(expected)) {
                problems.add(file + ": " + alert + " has runbook_url " + url + ", not " + expected);
            } else if (!anchors.contains(Markdown.anchor(alert))) {
                problems.add(file + ": " + alert + "'s runbook_url names #" + Markdown.anchor(alert)
                        + ", which is no heading of " + RUNBOOKS);
            }
        }));
        assertTrue(Files.isRegularFile(RUNBOOKS), RUNBOOKS + " exists");
        assertEquals(List.of(), problems);
    }

    /** Level-2 headings are the runbooks; anything else goes under them or above the first. */
    @Test
    void everyRunbookIsTheSectionOfAnAlert() {
        Set<String> sections = new TreeSet<>();
        Markdown.headings(Markdown.read(RUNBOOKS)).stream()
                .filter(heading -> heading.level() == 2)
                .forEach(heading -> assertTrue(sections.add(heading.text()), "one section for " + heading.text()));
        Set<String> alerts = new TreeSet<>(alertsByFile().get(Manifests.RULES_FILE).keySet());
        assertFalse(alerts.isEmpty(), "the rules file holds alerts");
        assertEquals(alerts, sections, "the sections of " + RUNBOOKS + " are the alerts' names, one each");
    }

    /** Both copies of the rules: the PrometheusRule (their source) and the plain rule file derived from it. */
    private static Map<Path, Map<String, String>> alertsByFile() {
        Map<Path, Map<String, String>> files = new LinkedHashMap<>();
        files.put(Manifests.KUBERNETES.resolve("prometheusrule.yaml"), alerts(Monitoring.ruleGroups()));
        files.put(Manifests.RULES_FILE, alerts(Manifests.read(Manifests.RULES_FILE).path("groups")));
        return files;
    }

    /** Each alert's runbook_url (null when it has none), by alert name. */
    private static Map<String, String> alerts(JsonNode groups) {
        Map<String, String> alerts = new LinkedHashMap<>();
        for (JsonNode group : groups) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.has("alert")) {
                    JsonNode url = rule.path("annotations").path("runbook_url");
                    alerts.put(rule.path("alert").asText(), url.isTextual() ? url.asText() : null);
                }
            }
        }
        return alerts;
    }
}
