package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The run's figures, phase by phase, and each target's verdict. Written as JSON (machine-readable) and given to the
 * HTML report; targets are printed against their figures with PASS or MISS, and never fail the run.
 */
final class Results {

    /** A figure held against its target. {@code pass} is null for figures reported without a target. */
    record Verdict(String phase, String figure, String value, String target, Boolean pass) {
        String mark() {
            return pass == null ? "info" : pass ? "PASS" : "MISS";
        }
    }

    private final Map<String, Object> root = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> phases = new LinkedHashMap<>();
    private final List<Verdict> verdicts = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final List<Svg.Chart> charts = new ArrayList<>();

    Results(String size) {
        root.put("size", size);
        root.put("startedAt", java.time.Instant.now().toString());
        root.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(),
                "os", System.getProperty("os.name") + " " + System.getProperty("os.version"),
                "java", System.getProperty("java.version")));
    }

    /**
     * A run as its JSON file keeps it: its size, verdicts and problems (the charts are in its HTML report only), so
     * that runs made apart can be compared ({@link ArtifactComparison}).
     */
    static Results read(Path file) {
        try {
            JsonNode tree = new ObjectMapper().readTree(file.toFile());
            Results results = new Results(tree.path("size").asText());
            tree.path("verdicts").forEach(v -> results.verdicts.add(new Verdict(v.path("phase").asText(),
                    v.path("figure").asText(), v.path("value").asText(), v.path("target").asText(),
                    v.path("pass").isBoolean() ? v.path("pass").asBoolean() : null)));
            tree.path("problems").forEach(problem -> results.problems.add(problem.asText()));
            return results;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void put(String key, Object value) {
        root.put(key, value);
    }

    /** The figures of one phase (created on first use, in phase order). */
    Map<String, Object> phase(String name) {
        return phases.computeIfAbsent(name, n -> new LinkedHashMap<>());
    }

    Map<String, Map<String, Object>> phases() {
        return phases;
    }

    void verdict(String phase, String figure, String value, String target, Boolean pass) {
        Verdict v = new Verdict(phase, figure, value, target, pass);
        verdicts.add(v);
        Progress.say("%-4s %s: %s (target %s)", v.mark(), phase + " / " + figure, value, target);
    }

    void info(String phase, String figure, String value) {
        verdict(phase, figure, value, "-", null);
    }

    /** Something that makes the run unsound (an unexpected answer, an oversell, a phase that failed). */
    void problem(String text) {
        problems.add(text);
        Progress.say("PROBLEM %s", text);
    }

    /** A chart for the HTML report and its chart files (not part of the JSON). */
    void chart(Svg.Chart chart) {
        charts.add(chart);
    }

    List<Svg.Chart> charts() {
        return charts;
    }

    List<Verdict> verdicts() {
        return verdicts;
    }

    List<String> problems() {
        return problems;
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>(root);
        m.put("finishedAt", java.time.Instant.now().toString());
        m.put("phases", phases);
        m.put("verdicts", verdicts);
        m.put("problems", problems);
        return m;
    }

    void writeJson(Path file) {
        try {
            Files.createDirectories(file.getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), toMap());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String summaryTable() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%-5s %-22s %-52s %-28s %s%n", "", "phase", "figure", "value", "target"));
        for (Verdict v : verdicts) {
            out.append(String.format("%-5s %-22s %-52s %-28s %s%n", v.mark(), v.phase(), v.figure(), v.value(),
                    v.target()));
        }
        if (!problems.isEmpty()) {
            out.append("problems:\n");
            problems.forEach(p -> out.append("  ").append(p).append('\n'));
        }
        return out.toString();
    }
}
