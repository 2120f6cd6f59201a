package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * Whether a phase's figures hold on their own: {@code PhaseIsolation <full|quick> <flash|placement> [pairs]}
 * (bench/run.sh isolation ...) runs the phase alone and the run up to and including it (every phase before it, as
 * the full run orders them), alternately, {@code pairs} times each, each run on a stack of its own. It prints each
 * figure's median per arm, the spread of the runs within the arms (the run-to-run noise), and whether the medians
 * differ by less than that; bench/results/isolation-&lt;timestamp&gt;.json keeps it all.
 */
public final class PhaseIsolation {

    /** A headline figure of a phase, read from a run's results. */
    private record Figure(String name, Function<JsonNode, Double> read) {
    }

    private static final Map<String, List<Figure>> FIGURES = Map.of(
            "flash", List.of(
                    new Figure("sale orders/s (median round)", phase -> medianOf(phase.get("rounds"), "saleOrdersPerSecond")),
                    new Figure("ratio to the hot-row limit", phase -> phase.get("medianRatio").asDouble()),
                    new Figure("losers p99 ms", phase -> phase.get("losersAfterSellOut").get("latencyMs").get("p99").asDouble())),
            "placement", List.of(
                    new Figure("orders/s at the first concurrency (median round)", phase -> medianOf(
                            phase.get("byConcurrency").get(0).get("serviceOrdersPerSecond"), null)),
                    new Figure("ratio to the limit at the first concurrency",
                            phase -> phase.get("byConcurrency").get(0).get("medianRatio").asDouble())));
    private static final Map<String, String> PHASE_NAMES = Map.of("flash", FlashSalePhase.NAME,
            "placement", PlacementPhase.NAME);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private PhaseIsolation() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || !FIGURES.containsKey(args[1])) {
            throw new IllegalArgumentException("usage: PhaseIsolation <full|quick> <" + String.join("|", FIGURES.keySet())
                    + "> [pairs]");
        }
        BenchSize size = BenchSize.of(args[0]);
        String phase = args[1];
        int pairs = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<String> upTo = Benchmark.PHASES.subList(0, Benchmark.PHASES.indexOf(phase) + 1);
        Path resultsDir = Path.of("bench/results");
        Map<String, List<Double>> alone = new LinkedHashMap<>();
        Map<String, List<Double>> after = new LinkedHashMap<>();
        List<String> runs = new ArrayList<>();
        for (int pair = 1; pair <= pairs; pair++) {
            Progress.say("isolation pair %d of %d: %s alone", pair, pairs, phase);
            runs.add(collect(Benchmark.run(size, List.of(phase), resultsDir), phase, alone));
            Progress.say("isolation pair %d of %d: %s after %s", pair, pairs, phase, upTo.subList(0, upTo.size() - 1));
            runs.add(collect(Benchmark.run(size, upTo, resultsDir), phase, after));
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("size", size.name());
        report.put("phase", phase);
        report.put("pairs", pairs);
        report.put("afterPhases", upTo);
        report.put("runs", runs);
        List<Map<String, Object>> figures = new ArrayList<>();
        System.out.println();
        System.out.printf("Phase %s alone and after %s, %d runs each, interleaved:%n", phase,
                upTo.subList(0, upTo.size() - 1), pairs);
        for (Figure figure : FIGURES.get(phase)) {
            List<Double> a = alone.get(figure.name());
            List<Double> b = after.get(figure.name());
            double noise = Math.max(Stats.max(a) - Stats.min(a), Stats.max(b) - Stats.min(b));
            double difference = Math.abs(Stats.median(a) - Stats.median(b));
            boolean within = difference <= noise;
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("figure", figure.name());
            f.put("alone", a);
            f.put("after", b);
            f.put("medianAlone", Stats.round(Stats.median(a), 2));
            f.put("medianAfter", Stats.round(Stats.median(b), 2));
            f.put("runToRunSpread", Stats.round(noise, 2));
            f.put("withinNoise", within);
            figures.add(f);
            System.out.printf("  %-50s alone %s (median %.2f), after %s (median %.2f): difference %.2f, spread %.2f: %s%n",
                    figure.name(), a, Stats.median(a), b, Stats.median(b), difference, noise,
                    within ? "within the noise" : "OUTSIDE the noise");
        }
        report.put("figures", figures);
        Path file = resultsDir.toAbsolutePath().resolve("isolation-" + STAMP.format(java.time.Instant.now()) + ".json");
        Files.createDirectories(file.getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), report);
        Progress.say("isolation results: %s", file);
    }

    /** Adds the run's figures of the phase to {@code into}; returns the run's results file. */
    private static String collect(Benchmark.Outcome outcome, String phase, Map<String, List<Double>> into) {
        try {
            JsonNode figures = new ObjectMapper().readTree(outcome.json().toFile()).get("phases")
                    .get(PHASE_NAMES.get(phase));
            for (Figure figure : FIGURES.get(phase)) {
                into.computeIfAbsent(figure.name(), name -> new ArrayList<>())
                        .add(Stats.round(figure.read().apply(figures), 2));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return outcome.json().toString();
    }

    /** The median of a field of each element (or of the elements themselves when {@code field} is null). */
    private static double medianOf(JsonNode array, String field) {
        List<Double> values = new ArrayList<>();
        array.forEach(element -> values.add((field == null ? element : element.get(field)).asDouble()));
        return Stats.median(values);
    }
}
