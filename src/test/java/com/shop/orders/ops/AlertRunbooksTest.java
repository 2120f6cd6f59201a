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

/**
 * Every alert leads to its runbook, and every runbook belongs to an alert: one section under "Runbooks" of
 * docs/operations.md each, which says what the alert means, how to confirm it, what to do and when to escalate.
 */
class AlertRunbooksTest {

    /**
     * Where runbook_url points. The repository names no public address (pom.xml has no url or scm, and no file names
     * where it is hosted), so the URL is a path from the repository's root: whoever hosts it prefixes that host's
     * address, in Alertmanager's templates for instance. Relative, it resolves against this checkout as well.
     */
    static final Path RUNBOOKS = Path.of("docs", "operations.md");

    /** The parts of a runbook, each a paragraph that starts with its name in bold. */
    static final List<String> PARTS = List.of("What it means", "How to confirm", "What to do", "When to escalate");

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

    /** The level-3 headings under "Runbooks" are the runbooks; the page's other sections are not. */
    @Test
    void everyRunbookIsTheSectionOfAnAlert() {
        Set<String> sections = new TreeSet<>();
        for (Markdown.Section runbook : runbooks()) {
            assertTrue(sections.add(runbook.heading()), "one section for " + runbook.heading());
        }
        Set<String> alerts = new TreeSet<>(alertsByFile().get(Manifests.RULES_FILE).keySet());
        assertFalse(alerts.isEmpty(), "the rules file holds alerts");
        assertEquals(alerts, sections, "the runbooks of " + RUNBOOKS + " are the alerts' names, one each");
    }

    /** Whoever is paged finds the same four answers in every runbook. */
    @Test
    void everyRunbookSaysWhatItMeansHowToConfirmItWhatToDoAndWhenToEscalate() {
        List<String> missing = new ArrayList<>();
        for (Markdown.Section runbook : runbooks()) {
            PARTS.stream().filter(part -> !runbook.text().contains("**" + part + ".**"))
                    .forEach(part -> missing.add(runbook.heading() + " has no \"" + part + ".\""));
        }
        assertEquals(List.of(), missing);
    }

    /** The sections under the page's "Runbooks". */
    private static List<Markdown.Section> runbooks() {
        Markdown.Section runbooks = Markdown.sections(Markdown.read(RUNBOOKS), 2).stream()
                .filter(section -> section.heading().equals("Runbooks")).findFirst()
                .orElseThrow(() -> new AssertionError(RUNBOOKS + " has a section \"Runbooks\""));
        return Markdown.sections(runbooks.text(), 3);
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
