package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.shop.orders.harness.ServiceProcess;

/**
 * Open-model load: a simulation of the bench/gatling project in a JVM of its own (so its CPU is never the
 * service's), configured by system properties; the percentiles come from the report's js/stats.js.
 */
final class Gatling {

    /** One request name's figures (ms): all answers, those that passed the checks (ok) and those that did not. */
    record Request(String name, long total, long ok, long ko, double p50, double p90, double p99, double p999,
                   double max, double mean) {

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("requests", total);
            m.put("ok", ok);
            m.put("ko", ko);
            m.put("latencyMs", Map.of("p50", p50, "p90", p90, "p99", p99, "p99.9", p999, "max", max, "mean", mean));
            return m;
        }
    }

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, JsonReadFeature.ALLOW_TRAILING_COMMA).build();

    private final Path project;
    private final Path resultsDir;

    Gatling(Path project, Path resultsDir) {
        this.project = project.toAbsolutePath();
        this.resultsDir = resultsDir.toAbsolutePath();
    }

    /** Builds the scenarios when they have not been built (bench/run.sh and CI build them beforehand). */
    void ensureBuilt() {
        if (Files.isRegularFile(project.resolve("target/classpath.txt"))
                && Files.isDirectory(project.resolve("target/classes"))) {
            return;
        }
        Progress.say("building the load scenarios (bench/gatling)");
        Path mvnw = project.resolve("../../mvnw").normalize();
        Command.run(List.of(mvnw.toString(), "-q", "-B", "-ntp", "package"), Map.of(), project, Duration.ofMinutes(10))
                .requireSuccess("building bench/gatling");
    }

    /**
     * The settings of PlaceOrdersAtFixedRate: orders to {@code service} at {@code rate} per second for {@code length}
     * after a warm-up at the same rate, one line each for a random SKU in [skuFrom, skuTo], as the members of {@code tokens}, a share of
     * them paid through the sandbox's buyer.
     */
    static Map<String, String> placeAtFixedRate(Bench bench, ServiceProcess service, double rate, Duration length,
            Duration warmUp, long skuFrom, long skuTo, double payShare, Path tokens) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("baseUrl", service.apiUrl());
        props.put("sandboxUrl", bench.stack().sandbox().baseUrl());
        props.put("rate", String.format(Locale.ROOT, "%.2f", rate));
        props.put("seconds", Long.toString(length.toSeconds()));
        props.put("skuFrom", Long.toString(skuFrom));
        props.put("skuTo", Long.toString(skuTo));
        props.put("payShare", Double.toString(payShare));
        props.put("warmUpSeconds", Long.toString(warmUp.toSeconds()));
        props.put("tokens", tokens.toString());
        return props;
    }

    /** Runs the simulation (simple class name) with these properties; answers its requests by name. */
    Map<String, Request> run(String simulation, Map<String, String> properties, Duration expectedLength) {
        ensureBuilt();
        try {
            String classpath = project.resolve("target/classes") + ":"
                    + Files.readString(project.resolve("target/classpath.txt")).trim();
            Path runDir = Files.createDirectories(resultsDir.resolve(simulation.toLowerCase() + "-" + System.nanoTime()));
            List<String> command = new ArrayList<>(List.of("java", "-Xmx512m", "-XX:+UseParallelGC",
                    // C1 only: a load of a few hundred requests/s needs no more, and C2's compiling would take CPU
                    // from the service on a small machine.
                    "-XX:TieredStopAtLevel=1",
                    "--add-opens", "java.base/java.lang=ALL-UNNAMED", "-cp", classpath));
            properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
            command.addAll(List.of("io.gatling.app.Gatling", "-s", "com.shop.orders.bench.gatling." + simulation,
                    "-rf", runDir.toString()));
            Command.Result result = Command.run(command, Map.of(), project, expectedLength.plusMinutes(3));
            Files.writeString(runDir.resolve("gatling.out"), result.output());
            Path stats = statsFile(runDir);
            if (stats == null) {
                throw new IllegalStateException("Gatling wrote no report (exit " + result.exitCode() + "): "
                        + Command.tail(result.output()));
            }
            return parse(stats);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path statsFile(Path runDir) throws IOException {
        try (Stream<Path> files = Files.walk(runDir)) {
            return files.filter(p -> p.endsWith(Path.of("js", "stats.js")))
                    .max(Comparator.comparing(Path::toString)).orElse(null);
        }
    }

    /** The report's js/stats.js: {@code var stats = {...}} (a JS object literal, names unquoted) and functions. */
    private static Map<String, Request> parse(Path stats) throws IOException {
        String js = Files.readString(stats, StandardCharsets.UTF_8);
        int start = js.indexOf('{', js.indexOf("var stats"));
        int end = js.lastIndexOf('}', js.indexOf("function fillStats"));
        if (start < 0 || end < start) {
            throw new IllegalStateException("unexpected Gatling report " + stats);
        }
        JsonNode root = JSON.readTree(js.substring(start, end + 1));
        Map<String, Request> requests = new LinkedHashMap<>();
        requests.put("all", request("all", root.get("stats")));
        JsonNode contents = root.get("contents");
        if (contents != null) {
            contents.elements().forEachRemaining(node -> {
                String name = node.get("name").asText();
                requests.put(name, request(name, node.get("stats")));
            });
        }
        return requests;
    }

    private static Request request(String name, JsonNode stats) {
        return new Request(name, (long) num(stats, "numberOfRequests", "total"), (long) num(stats, "numberOfRequests", "ok"),
                (long) num(stats, "numberOfRequests", "ko"), num(stats, "percentiles1", "total"),
                num(stats, "percentiles2", "total"), num(stats, "percentiles3", "total"),
                num(stats, "percentiles4", "total"), num(stats, "maxResponseTime", "total"),
                num(stats, "meanResponseTime", "total"));
    }

    private static double num(JsonNode stats, String field, String which) {
        JsonNode node = stats.path(field).path(which);
        if (node.isNumber()) {
            return node.asDouble();
        }
        try {
            return Double.parseDouble(node.asText());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
