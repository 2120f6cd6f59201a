package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * bench/results/compare-&lt;timestamp&gt;.json keeps it all, with the path of every run's own results, and
 * compare-&lt;timestamp&gt;.html shows it with the two side by side in charts ({@link ComparisonReport}).
 */
public final class ArtifactComparison {

    /** The comparison's charts: figures of one unit, the jar's and the executable's medians side by side. */
    enum Family {
        THROUGHPUT("Throughput", "orders/s"),
        LATENCY("Latency", "ms"),
        CPU("Service CPU per unit of work", "ms"),
        COLLECTIONS("Collections", "% of the time; full a minute"),
        MEMORY("Service RSS", "MB"),
        STARTUP("Start-up, spawn to ready", "ms"),
        WALLET_NOTIFY("Wallets: notify to PAID", "ms"),
        SECONDS("Close lateness, lost notifies found and warm-up after a cold start", "s");

        final String title;
        final String unit;

        Family(String title, String unit) {
            this.title = title;
            this.unit = unit;
        }
    }

    /**
     * A headline figure: read from the first line of a run's summary in {@code phase} whose figure matches, as the
     * number {@code value} makes of the line's value matched by {@code number}; drawn in its {@code family}'s chart
     * as {@code label} (null: in the table only).
     */
    private record Figure(String name, String phase, Predicate<String> figure, Pattern number,
            ToDoubleFunction<Matcher> value, Family family, String label) {

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

        Figure in(Family family, String label) {
            return new Figure(name, phase, figure, number, value, family, label);
        }
    }

    /** One figure of both artifacts: each run's value, the medians and the native/JVM ratio of the medians. */
    record Compared(String figure, Family family, String label, List<Double> nativeRuns, List<Double> jvmRuns) {

        Double nativeMedian() {
            return nativeRuns.isEmpty() ? null : Stats.round(Stats.median(nativeRuns), 2);
        }

        Double jvmMedian() {
            return jvmRuns.isEmpty() ? null : Stats.round(Stats.median(jvmRuns), 2);
        }

        Double ratio() {
            Double n = nativeMedian();
            Double j = jvmMedian();
            return n == null || j == null || j == 0 ? null : Stats.round(n / j, 2);
        }

        Map<String, Object> toMap() {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("figure", figure);
            f.put("native", nativeRuns);
            f.put("jvm", jvmRuns);
            f.put("medianNative", nativeMedian());
            f.put("medianJvm", jvmMedian());
            f.put("nativeOverJvm", ratio());
            return f;
        }
    }

    /** One run of the benchmark in the comparison, and where its own results are. */
    record Run(int round, String artifact, Path json, Path html, List<String> problems) {

        Map<String, Object> toMap() {
            return Map.of("round", round, "artifact", artifact, "results", json.toString(), "report",
                    html.toString(), "problems", problems);
        }
    }

    /** The first number ({@code group 1} of {@code number}) of the line whose figure starts with {@code figure}. */
    private static Figure first(String name, String phase, String figure, String number) {
        return new Figure(name, phase, line -> line.startsWith(figure), Pattern.compile(number),
                m -> Double.parseDouble(m.group(1)), null, null);
    }

    private static final String STARTUP = "6 start-up and RSS";
    /** The cold-start phase's lines of the artifact as built (variant "default"). */
    private static final String COLD_DEFAULT = "default (";
    private static final List<Figure> FIGURES = Stream.concat(Stream.of(
            first("start-up, spawn to ready (ms)", STARTUP, "start-up time", "^(\\d+) ms")
                    .in(Family.STARTUP, "spawn to ready"),
            first("RSS idle after start (MB)", STARTUP, "RSS idle", "^(\\d+) MB").in(Family.MEMORY, "idle"),
            first("RSS peak under load (MB)", STARTUP, "RSS peak", "^(\\d+) MB").in(Family.MEMORY, "peak under load"),
            first("service CPU ms per placed order, 32 conns", PlacementPhase.NAME, "CPU ms per order, 32 conns",
                    "service ([0-9.]+)").in(Family.CPU, "per placed order"),
            first("placement: time in collections, 32 conns (%)", PlacementPhase.NAME,
                    "time in collections, 32 conns", "^([0-9.]+) %").in(Family.COLLECTIONS, "placement: % in GC"),
            first("placement: full collections a minute, 32 conns", PlacementPhase.NAME,
                    "time in collections, 32 conns", "; ([0-9.]+) full collections a minute")
                    .in(Family.COLLECTIONS, "placement: full a minute"),
            first("placed orders/s, 32 conns", PlacementPhase.NAME, "median ratio to limit, 32 conns",
                    "\\(([0-9.]+)/s").in(Family.THROUGHPUT, "placement, 32 conns"),
            first("placement: ratio to the database limit, 32 conns", PlacementPhase.NAME,
                    "median ratio to limit, 32 conns", "^([0-9.]+) "),
            first("placement p99 at the fixed rate, open model (ms)", PlacementPhase.NAME, "p99 at ", "^([0-9.]+) ms")
                    .in(Family.LATENCY, "placement p99, open"),
            first("placement p99.9 at the fixed rate, open model (ms)", PlacementPhase.NAME, "p99 at ",
                    "p99\\.9 ([0-9.]+)").in(Family.LATENCY, "placement p99.9, open"),
            first("watch: close lateness p99 (s)", WatchPhase.NAME, "close lateness p99", "^([0-9.]+) s")
                    .in(Family.SECONDS, "close lateness p99"),
            first("watch: checks per message per interval", WatchPhase.NAME, "checks per message per interval",
                    "^([0-9.]+)"),
            first("watch: orders left pending", WatchPhase.NAME, "orders still pending", "^(\\d+)"),
            first("flash sale: winners' orders/s", FlashSalePhase.NAME, "median ratio to hot-row limit",
                    "\\(([0-9.]+)/s\\)").in(Family.THROUGHPUT, "flash sale winners"),
            first("flash sale: losers' p99 (ms)", FlashSalePhase.NAME, "losers answered 409, p99", "p99 ([0-9.]+) ms")
                    .in(Family.LATENCY, "flash losers p99"),
            first("flash sale: oversold units", FlashSalePhase.NAME, "oversold units", "^(\\d+)"),
            new Figure("cold start: first 5 s, % of warm", ColdStartPhase.NAME,
                    line -> line.startsWith(COLD_DEFAULT) && line.endsWith(", first"),
                    Pattern.compile("(?:^|; )5 s: ([0-9.]+)/s p99 [0-9.]+ ms \\(warm ([0-9.]+)/s"),
                    m -> 100 * Double.parseDouble(m.group(1)) / Double.parseDouble(m.group(2)), null, null),
            new Figure("cold start: time to 80 % of warm (s)", ColdStartPhase.NAME,
                    line -> line.startsWith(COLD_DEFAULT) && line.endsWith("time to 80 % of warm, median"),
                    Pattern.compile("^(\\d+) s$"), m -> Double.parseDouble(m.group(1)), Family.SECONDS,
                    "cold: 80 % of warm"),
            first("soak: placement p99 (ms)", SoakPhase.NAME, "placement p99 over the soak", "^([0-9.]+) ms")
                    .in(Family.LATENCY, "soak placement p99"),
            first("soak: service GC pause (% of the time)", SoakPhase.NAME, "GC over the soak", "^([0-9.]+) %")
                    .in(Family.COLLECTIONS, "soak: % in GC")),
            WalletsPhase.WALLETS.stream().flatMap(ArtifactComparison::wallet)).toList();
    private static final List<String> ARTIFACTS = List.of("native", "jvm");
    private static final String FROM_RUNS = "from";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private ArtifactComparison() {
    }

    /** The wallets phase's figures of one wallet. */
    private static Stream<Figure> wallet(String wallet) {
        String ms = "^([0-9.]+) ms";
        String s = "^([0-9.]+) s";
        return Stream.of(
                first(wallet + ": notify to PAID p50 (ms)", WalletsPhase.NAME, wallet + ": notify to PAID p50", ms)
                        .in(Family.WALLET_NOTIFY, wallet + " p50"),
                first(wallet + ": notify to PAID p99 (ms)", WalletsPhase.NAME, wallet + ": notify to PAID p99", ms)
                        .in(Family.WALLET_NOTIFY, wallet + " p99"),
                first(wallet + ": service CPU ms per prepay", WalletsPhase.NAME, wallet + ": service CPU ms per prepay",
                        "^([0-9.]+)").in(Family.CPU, wallet + " prepay"),
                first(wallet + ": service CPU ms per notify", WalletsPhase.NAME, wallet + ": service CPU ms per notify",
                        "^([0-9.]+)").in(Family.CPU, wallet + " notify"),
                first(wallet + ": lost notify found p50 (s)", WalletsPhase.NAME, wallet + ": lost notify found p50", s)
                        .in(Family.SECONDS, wallet + " lost, p50"),
                first(wallet + ": lost notify found p99 (s)", WalletsPhase.NAME, wallet + ": lost notify found p99",
                        s).in(Family.SECONDS, wallet + " lost, p99"));
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals(FROM_RUNS)) {
            compareRunsMade(Stream.of(args).skip(1).map(Path::of).toList());
            return;
        }
        BenchSize size = BenchSize.of(args.length > 0 ? args[0] : "full");
        List<String> phases = args.length > 1 && !args[1].equals("all") ? List.of(args[1].split(","))
                : Benchmark.DEFAULT_PHASES;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Path resultsDir = Path.of("bench/results");
        Map<String, List<Results>> byArtifact = new LinkedHashMap<>();
        ARTIFACTS.forEach(artifact -> byArtifact.put(artifact, new ArrayList<>()));
        List<Run> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<String> order = round % 2 == 1 ? ARTIFACTS : List.of(ARTIFACTS.get(1), ARTIFACTS.get(0));
            for (String artifact : order) {
                Progress.say("comparison round %d of %d: %s", round, rounds, artifact);
                System.setProperty(PackagedArtifact.PROP_ARTIFACT, artifact);
                Benchmark.Outcome outcome = Benchmark.run(size, phases, resultsDir);
                byArtifact.get(artifact).add(outcome.results());
                runs.add(new Run(round, artifact, outcome.json(), outcome.html(), outcome.results().problems()));
            }
        }
        System.clearProperty(PackagedArtifact.PROP_ARTIFACT);
        List<Compared> figures = compare(byArtifact.get("native"), byArtifact.get("jvm"));
        print(size, phases, rounds, figures);
        Path json = resultsDir.toAbsolutePath().resolve("compare-" + STAMP.format(java.time.Instant.now()) + ".json");
        Path html = write(size.name(), phases, rounds, figures, runs, json);
        Progress.say("comparison results: %s and %s", json, html);
    }

    /**
     * The comparison of runs already made ({@code ArtifactComparison from <run.json>...}, bench/run.sh compare-from):
     * rounds run on another day, or a comparison stopped before its last round. Each run's artifact is the one its
     * own results name; the runs count as rounds in the order given.
     */
    private static void compareRunsMade(List<Path> files) {
        Map<String, List<Results>> byArtifact = new LinkedHashMap<>();
        ARTIFACTS.forEach(artifact -> byArtifact.put(artifact, new ArrayList<>()));
        List<Run> runs = new ArrayList<>();
        Set<String> phases = new LinkedHashSet<>();
        String size = null;
        for (Path file : files) {
            Results results = Results.read(file);
            String artifact = results.verdicts().stream().filter(v -> v.figure().equals("service artifact"))
                    .map(Results.Verdict::value).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(file + " names no service artifact"));
            List<Results> ofArtifact = byArtifact.get(artifact);
            ofArtifact.add(results);
            size = (String) results.toMap().get("size");
            results.verdicts().forEach(v -> phases.add(v.phase()));
            Path html = file.resolveSibling(file.getFileName().toString().replaceFirst("\\.json$", ".html"));
            runs.add(new Run(ofArtifact.size(), artifact, file.toAbsolutePath(), html.toAbsolutePath(),
                    results.problems()));
        }
        int rounds = byArtifact.values().stream().mapToInt(List::size).max().orElse(0);
        List<Compared> figures = compare(byArtifact.get("native"), byArtifact.get("jvm"));
        print(BenchSize.of(size), List.copyOf(phases), rounds, figures);
        Path json = files.get(0).toAbsolutePath().resolveSibling("compare-" + STAMP.format(java.time.Instant.now())
                + ".json");
        Path html = write(size, List.copyOf(phases), rounds, figures, runs, json);
        Progress.say("comparison results: %s and %s", json, html);
    }

    /** Every headline figure that either artifact's runs report, with the value of each run. */
    static List<Compared> compare(List<Results> nativeRuns, List<Results> jvmRuns) {
        List<Compared> compared = new ArrayList<>();
        for (Figure figure : FIGURES) {
            Compared c = new Compared(figure.name(), figure.family(), figure.label(), values(figure, nativeRuns),
                    values(figure, jvmRuns));
            if (!c.nativeRuns().isEmpty() || !c.jvmRuns().isEmpty()) {
                compared.add(c);
            }
        }
        return compared;
    }

    private static List<Double> values(Figure figure, List<Results> runs) {
        List<Double> values = new ArrayList<>();
        for (Results results : runs) {
            Double value = figure.read(results.verdicts());
            if (value != null && !value.isNaN() && !value.isInfinite()) {
                values.add(Stats.round(value, 2));
            }
        }
        return values;
    }

    private static void print(BenchSize size, List<String> phases, int rounds, List<Compared> figures) {
        System.out.println();
        System.out.printf("Native executable beside the jar, %s size, phases %s, %d interleaved rounds each:%n",
                size.name(), phases, rounds);
        System.out.printf("  %-52s %-30s %-30s %s%n", "figure", "native (median)", "jvm (median)", "native / jvm");
        for (Compared f : figures) {
            System.out.printf("  %-52s %-30s %-30s %s%n", f.figure(), f.nativeRuns() + " (" + f.nativeMedian() + ")",
                    f.jvmRuns() + " (" + f.jvmMedian() + ")", f.ratio() == null ? "-" : f.ratio());
        }
    }

    /** The comparison as {@code json} and, beside it, as an HTML page with its charts; returns the page's path. */
    static Path write(String size, List<String> phases, int rounds, List<Compared> figures, List<Run> runs,
            Path json) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("size", size);
        report.put("phases", phases);
        report.put("rounds", rounds);
        report.put("figures", figures.stream().map(Compared::toMap).toList());
        report.put("runs", runs.stream().map(Run::toMap).toList());
        try {
            Files.createDirectories(json.getParent());
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(json.toFile(), report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path html = json.resolveSibling(json.getFileName().toString().replaceFirst("\\.json$", ".html"));
        ComparisonReport.write(size, phases, rounds, figures, runs, html);
        return html;
    }
}
