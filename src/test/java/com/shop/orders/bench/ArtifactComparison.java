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
import java.util.regex.Matcher;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.shop.orders.testsupport.PackagedArtifact;

/**
 * The native executable beside the jar in one run: {@code ArtifactComparison <full|quick> [phases|all] [rounds]}
 * (bench/run.sh compare ..., which builds both; "all": the phases of a run that names none, the soak only when named)
 * runs the benchmark on each of the two, {@code rounds} times each,
 * interleaved and in alternating order (native first in odd rounds, the jar first in even ones), each run on a stack of
 * its own. It prints each headline figure's runs and median per artifact and the native/JVM ratio of the medians;
 * bench/results/compare-&lt;timestamp&gt;.json keeps it all, with the path of every run's own results.
 */
public final class ArtifactComparison {

    /**
     * A headline figure: read from the first line of a run's summary in {@code phase} whose figure matches, as the
     * number {@code value} makes of the line's value matched by {@code number}.
     */
    private record Figure(String name, String phase, Predicate<String> figure, Pattern number,
            ToDoubleFunction<Matcher> value) {

        /** The figure in a run's lines, or null when the run has no such line (the phase did not run). */
        Double read(List<Results.Verdict> lines) {
            for (Results.Verdict line : lines) {
                if (line.phase().equals(phase) && figure.test(line.figure())) {
                    Matcher m = number.matcher(line.value());
                    return m.find() ? value.applyAsDouble(m) : null;
                }
            }
            return null;
        }
    }

    /** The first number ({@code group 1} of {@code number}) of the line whose figure starts with {@code figure}. */
    private static Figure first(String name, String phase, String figure, String number) {
        return new Figure(name, phase, line -> line.startsWith(figure), Pattern.compile(number),
                m -> Double.parseDouble(m.group(1)));
    }

    private static final String STARTUP = "6 start-up and RSS";
    /** The cold-start phase's lines of the artifact as built (variant "default"). */
    private static final String COLD_DEFAULT = "default (";
    private static final List<Figure> FIGURES = Stream.concat(Stream.of(
            first("start-up, spawn to ready (ms)", STARTUP, "start-up time", "^(\\d+) ms"),
            first("RSS idle after start (MB)", STARTUP, "RSS idle", "^(\\d+) MB"),
            first("RSS peak under load (MB)", STARTUP, "RSS peak", "^(\\d+) MB"),
            first("service CPU ms per placed order, 32 conns", PlacementPhase.NAME, "CPU ms per order, 32 conns",
                    "service ([0-9.]+)"),
            first("placement: time in collections, 32 conns (%)", PlacementPhase.NAME,
                    "time in collections, 32 conns", "^([0-9.]+) %"),
            first("placement: full collections a minute, 32 conns", PlacementPhase.NAME,
                    "time in collections, 32 conns", "; ([0-9.]+) full collections a minute"),
            first("placed orders/s, 32 conns", PlacementPhase.NAME, "median ratio to limit, 32 conns",
                    "\\(([0-9.]+)/s"),
            first("placement p99 at the fixed rate, open model (ms)", PlacementPhase.NAME, "p99 at ", "^([0-9.]+) ms"),
            first("watch: close lateness p99 (s)", WatchPhase.NAME, "close lateness p99", "^([0-9.]+) s"),
            first("watch: checks per message per interval", WatchPhase.NAME, "checks per message per interval",
                    "^([0-9.]+)"),
            first("watch: orders left pending", WatchPhase.NAME, "orders still pending", "^(\\d+)"),
            first("flash sale: winners' orders/s", FlashSalePhase.NAME, "median ratio to hot-row limit",
                    "\\(([0-9.]+)/s\\)"),
            first("flash sale: losers' p99 (ms)", FlashSalePhase.NAME, "losers answered 409, p99", "p99 ([0-9.]+) ms"),
            first("flash sale: oversold units", FlashSalePhase.NAME, "oversold units", "^(\\d+)"),
            new Figure("cold start: first 5 s, % of warm", ColdStartPhase.NAME,
                    line -> line.startsWith(COLD_DEFAULT) && line.endsWith(", first"),
                    Pattern.compile("(?:^|; )5 s: ([0-9.]+)/s p99 [0-9.]+ ms \\(warm ([0-9.]+)/s"),
                    m -> 100 * Double.parseDouble(m.group(1)) / Double.parseDouble(m.group(2))),
            new Figure("cold start: time to 80 % of warm (s)", ColdStartPhase.NAME,
                    line -> line.startsWith(COLD_DEFAULT) && line.endsWith("time to 80 % of warm, median"),
                    Pattern.compile("^(\\d+) s$"), m -> Double.parseDouble(m.group(1))),
            first("soak: placement p99 (ms)", SoakPhase.NAME, "placement p99 over the soak", "^([0-9.]+) ms"),
            first("soak: service GC pause (% of the time)", SoakPhase.NAME, "GC over the soak", "^([0-9.]+) %")),
            WalletsPhase.WALLETS.stream().flatMap(ArtifactComparison::wallet)).toList();
    private static final List<String> ARTIFACTS = List.of("native", "jvm");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private ArtifactComparison() {
    }

    /** The wallets phase's figures of one wallet. */
    private static Stream<Figure> wallet(String wallet) {
        String ms = "^([0-9.]+) ms";
        String s = "^([0-9.]+) s";
        return Stream.of(
                first(wallet + ": notify to PAID p50 (ms)", WalletsPhase.NAME, wallet + ": notify to PAID p50", ms),
                first(wallet + ": notify to PAID p99 (ms)", WalletsPhase.NAME, wallet + ": notify to PAID p99", ms),
                first(wallet + ": service CPU ms per prepay", WalletsPhase.NAME, wallet + ": service CPU ms per prepay",
                        "^([0-9.]+)"),
                first(wallet + ": service CPU ms per notify", WalletsPhase.NAME, wallet + ": service CPU ms per notify",
                        "^([0-9.]+)"),
                first(wallet + ": lost notify found p50 (s)", WalletsPhase.NAME, wallet + ": lost notify found p50", s),
                first(wallet + ": lost notify found p99 (s)", WalletsPhase.NAME, wallet + ": lost notify found p99",
                        s));
    }

    public static void main(String[] args) throws IOException {
        BenchSize size = BenchSize.of(args.length > 0 ? args[0] : "full");
        List<String> phases = args.length > 1 && !args[1].equals("all") ? List.of(args[1].split(","))
                : Benchmark.DEFAULT_PHASES;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Path resultsDir = Path.of("bench/results");
        Map<String, Map<String, List<Double>>> byArtifact = new LinkedHashMap<>();
        ARTIFACTS.forEach(artifact -> byArtifact.put(artifact, new LinkedHashMap<>()));
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<String> order = round % 2 == 1 ? ARTIFACTS : List.of(ARTIFACTS.get(1), ARTIFACTS.get(0));
            for (String artifact : order) {
                Progress.say("comparison round %d of %d: %s", round, rounds, artifact);
                System.setProperty(PackagedArtifact.PROP_ARTIFACT, artifact);
                Benchmark.Outcome outcome = Benchmark.run(size, phases, resultsDir);
                collect(outcome.results(), byArtifact.get(artifact));
                runs.add(Map.of("round", round, "artifact", artifact, "results", outcome.json().toString(),
                        "problems", outcome.results().problems()));
            }
        }
        System.clearProperty(PackagedArtifact.PROP_ARTIFACT);
        report(size, phases, rounds, byArtifact, runs, resultsDir);
    }

    private static void collect(Results results, Map<String, List<Double>> into) {
        for (Figure figure : FIGURES) {
            Double value = figure.read(results.verdicts());
            if (value != null && !value.isNaN() && !value.isInfinite()) {
                into.computeIfAbsent(figure.name(), name -> new ArrayList<>()).add(Stats.round(value, 2));
            }
        }
    }

    private static void report(BenchSize size, List<String> phases, int rounds,
            Map<String, Map<String, List<Double>>> byArtifact, List<Map<String, Object>> runs, Path resultsDir)
            throws IOException {
        List<Map<String, Object>> figures = new ArrayList<>();
        System.out.println();
        System.out.printf("Native executable beside the jar, %s size, phases %s, %d interleaved rounds each:%n",
                size.name(), phases, rounds);
        System.out.printf("  %-52s %-30s %-30s %s%n", "figure", "native (median)", "jvm (median)", "native / jvm");
        for (Figure figure : FIGURES) {
            List<Double> nativeRuns = byArtifact.get("native").getOrDefault(figure.name(), List.of());
            List<Double> jvmRuns = byArtifact.get("jvm").getOrDefault(figure.name(), List.of());
            if (nativeRuns.isEmpty() && jvmRuns.isEmpty()) {
                continue;
            }
            Double nativeMedian = nativeRuns.isEmpty() ? null : Stats.round(Stats.median(nativeRuns), 2);
            Double jvmMedian = jvmRuns.isEmpty() ? null : Stats.round(Stats.median(jvmRuns), 2);
            Double ratio = nativeMedian == null || jvmMedian == null || jvmMedian == 0 ? null
                    : Stats.round(nativeMedian / jvmMedian, 2);
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("figure", figure.name());
            f.put("native", nativeRuns);
            f.put("jvm", jvmRuns);
            f.put("medianNative", nativeMedian);
            f.put("medianJvm", jvmMedian);
            f.put("nativeOverJvm", ratio);
            figures.add(f);
            System.out.printf("  %-52s %-30s %-30s %s%n", figure.name(), nativeRuns + " (" + nativeMedian + ")",
                    jvmRuns + " (" + jvmMedian + ")", ratio == null ? "-" : ratio);
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("size", size.name());
        report.put("phases", phases);
        report.put("rounds", rounds);
        report.put("figures", figures);
        report.put("runs", runs);
        Path file = resultsDir.toAbsolutePath().resolve("compare-" + STAMP.format(java.time.Instant.now()) + ".json");
        Files.createDirectories(file.getParent());
        try {
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Progress.say("comparison results: %s", file);
    }
}
