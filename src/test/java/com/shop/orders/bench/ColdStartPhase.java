package com.shop.orders.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.testsupport.PackagedArtifact;

/**
 * Phase 7: what a freshly scaled-out instance does in a sale's first minute. A new instance of the service joins the
 * stack and, the moment its readiness probe answers, gets flash-sale load (a new SKU with the flash sale's stock, 64
 * connections each ordering one unit after another, so first the winners and then the losers). The same instance
 * then serves the same load on another such SKU, warm. Reported: answers per second and p99 in the first 5, 10, 30
 * and 60 s, cold against warm, and the time until the cold run answers, over 5 s, at 80 % of the warm run's steady
 * rate (its second half, when only losers are left, as in the cold run by then). Each runtime variant
 * ({@code -Dbench.cold-variants}, see {@link #variants}) is measured once per round, rounds interleaved; figures are
 * medians over the rounds. Last, the load generator is checked against wrk on the warm main instance.
 */
final class ColdStartPhase {

    static final String NAME = "7 cold start";
    static final String VARIANTS_PROPERTY = "bench.cold-variants";

    private static final int[] WINDOWS = {5, 10, 30, 60};
    private static final double TARGET_SHARE = 0.8;

    /**
     * A way to run the service: its runtime, and for a cache the JVM builds in a training run first, the options of
     * that run and the file it writes.
     */
    private record Variant(String name, String description, PackagedArtifact runtime, String trainingOptions,
                           Path archive) {
        boolean trained() {
            return archive != null;
        }
    }

    /** One round of one variant: its start-up, the cold run and the warm run of the same instance. */
    private record Measured(long startupMs, TimedLoad.Run cold, TimedLoad.Run warm) {
    }

    private final Bench bench;
    private final Clearance clearance;
    private final TimedLoad load;

    ColdStartPhase(Bench bench) {
        this.bench = bench;
        this.clearance = new Clearance(bench);
        this.load = new TimedLoad(bench.tokens());
    }

    void run() {
        BenchSize size = bench.size();
        Map<String, Object> figures = bench.results().phase(NAME);
        List<Variant> variants = new ArrayList<>(variants());
        // The load generator's own JIT first, against the service that is already warm.
        load.place(bench.service().apiUrl(), flashSku(), size.flashConnections(), size.warmUp());
        clearance.cancelPending();
        variants.removeIf(variant -> variant.trained() && !train(variant));
        Map<String, List<Measured>> byVariant = new LinkedHashMap<>();
        for (int round = 1; round <= size.coldRounds(); round++) {
            for (Variant variant : variants) {
                byVariant.computeIfAbsent(variant.name(), v -> new ArrayList<>()).add(measure(variant, round));
            }
        }
        List<Map<String, Object>> reported = new ArrayList<>();
        List<Svg.Series> curves = new ArrayList<>();
        for (Variant variant : variants) {
            List<Measured> rounds = byVariant.get(variant.name());
            reported.add(report(variant, rounds));
            Measured median = rounds.stream().sorted((a, b) -> Double.compare(secondsToTarget(a), secondsToTarget(b)))
                    .toList().get(rounds.size() / 2);
            curves.add(new Svg.Series(variant.name() + " cold", median.cold().ratePerSecond()));
            if (variant == variants.get(0)) {
                curves.add(new Svg.Series(variant.name() + " warm", median.warm().ratePerSecond()));
            }
        }
        figures.put("connections", size.flashConnections());
        figures.put("stockPerRun", size.flashStock());
        figures.put("seconds", size.coldLength().toSeconds());
        figures.put("rounds", size.coldRounds());
        figures.put("variants", reported);
        figures.put("loadGeneratorCheck", generatorCheck());
        List<Double> xs = IntStream.range(0, (int) size.coldLength().toSeconds()).mapToObj(s -> (double) s).toList();
        bench.results().chart(Svg.lines("Cold start: answers per second from the moment the instance is ready "
                + "(median round; flash-sale load, " + size.flashConnections() + " conns)", "answers/s",
                "seconds since ready", xs, curves));
    }

    /**
     * The runtimes {@code -Dbench.cold-variants} names (comma-separated; "default" when unset): {@code default} is the
     * build's artifact as the rest of the run starts it; for the jar, {@code appcds} adds a class-data-sharing
     * archive made in a training run ({@code -XX:ArchiveClassesAtExit}), {@code c1-only} stops at the first JIT tier,
     * {@code jdk25} runs it on JDK 25 ({@code -Dbench.jdk25-home}) and {@code jdk25-aot} there with an AOT cache made
     * in a training run ({@code -XX:AOTCacheOutput}, JEP 483/514/515).
     */
    private List<Variant> variants() {
        PackagedArtifact built = bench.service().artifact();
        List<String> names = Arrays.stream(System.getProperty(VARIANTS_PROPERTY, "default").split(","))
                .map(String::trim).filter(name -> !name.isEmpty()).toList();
        Path jdk25 = Path.of(System.getProperty("bench.jdk25-home", "/usr/lib/jvm/temurin-25-jdk-amd64"));
        String options = built.runtimeOptions();
        Path dir = bench.runDir().toAbsolutePath();
        List<Variant> variants = new ArrayList<>();
        for (String name : names) {
            if (built.nativeExecutable() && !name.equals("default")) {
                bench.results().info(NAME, "variant " + name, "skipped: a JVM option, and the artifact is native");
                continue;
            }
            Path cds = dir.resolve("app-cds.jsa");
            Path aot = dir.resolve("app.aot");
            variants.add(switch (name) {
                case "default" -> new Variant(name, built.kind() + " as built, " + options, built, null, null);
                case "appcds" -> new Variant(name, "AppCDS archive from a training run",
                        built.onJvm(built.javaHome(), options + " -XX:SharedArchiveFile=" + cds),
                        options + " -XX:ArchiveClassesAtExit=" + cds, cds);
                case "c1-only" -> new Variant(name, "-XX:TieredStopAtLevel=1",
                        built.onJvm(built.javaHome(), options + " -XX:TieredStopAtLevel=1"), null, null);
                case "jdk25" -> new Variant(name, "JDK 25 (" + jdk25 + ")", built.onJvm(jdk25, options), null, null);
                case "jdk25-aot" -> new Variant(name, "JDK 25 with an AOT cache from a training run",
                        built.onJvm(jdk25, options + " -XX:AOTCache=" + aot), options + " -XX:AOTCacheOutput=" + aot,
                        aot);
                default -> throw new IllegalArgumentException(VARIANTS_PROPERTY
                        + " is a comma-separated choice of default, appcds, c1-only, jdk25, jdk25-aot; not " + name);
            });
        }
        return variants;
    }

    /**
     * A training run: the variant's JVM with its recording options serves the same load as a measured run, then
     * stops as Kubernetes stops a pod (SIGTERM), which is when the JVM writes its archive. False if none was written.
     */
    private boolean train(Variant variant) {
        Progress.say("  %s: training run (%s)", variant.name(), variant.trainingOptions());
        ServiceProcess trainee = bench.stack().addReplica("train-" + variant.name(),
                variant.runtime().onJvm(variant.runtime().javaHome(), variant.trainingOptions()));
        trainee.start();
        load.place(trainee.apiUrl(), flashSku(), bench.size().flashConnections(), bench.size().coldLength());
        clearance.cancelPending();
        // The JVM assembles an AOT cache on its way out; give it time.
        trainee.terminate(Duration.ofMinutes(3));
        if (!Files.isRegularFile(variant.archive())) {
            bench.results().problem("cold start " + variant.name() + ": the training run wrote no " + variant.archive()
                    + ", see " + trainee.log());
            return false;
        }
        return true;
    }

    private Measured measure(Variant variant, int round) {
        BenchSize size = bench.size();
        ServiceProcess instance = bench.stack().addReplica("cold-" + variant.name() + "-" + round, variant.runtime());
        instance.start();
        long startupMs = instance.startupTime().toMillis();
        try {
            long coldSku = flashSku();
            TimedLoad.Run cold = load.place(instance.apiUrl(), coldSku, size.flashConnections(), size.coldLength());
            check(variant, coldSku, cold);
            clearance.cancelPending();
            long warmSku = flashSku();
            TimedLoad.Run warm = load.place(instance.apiUrl(), warmSku, size.flashConnections(), size.coldLength());
            check(variant, warmSku, warm);
            clearance.cancelPending();
            Measured measured = new Measured(startupMs, cold, warm);
            Progress.say("  %s, round %d: ready in %d ms; first 5 s %.0f answers/s (warm %.0f), 80 %% of warm after %s",
                    variant.name(), round, startupMs, cold.perSecond(0, Math.min(5, cold.seconds())),
                    warm.perSecond(0, Math.min(5, warm.seconds())), describe(secondsToTarget(measured)));
            return measured;
        } finally {
            instance.close();
        }
    }

    private long flashSku() {
        return bench.catalog().create(1, bench.size().flashStock()).from();
    }

    /** Every answer a 201 or a 409, and no more units in orders than the SKU had. */
    private void check(Variant variant, long sku, TimedLoad.Run run) {
        long unexpected = run.unexpected(201, 409);
        if (unexpected > 0) {
            bench.results().problem("cold start " + variant.name() + ": " + unexpected
                    + " answers other than 201/409 on SKU " + sku);
        }
        OrderFacts.StockRow stock = bench.facts().stock(sku);
        if (stock.pendingQuantity() + stock.paidQuantity() > bench.size().flashStock()) {
            bench.results().problem("cold start SKU " + sku + " oversold: " + stock);
        }
    }

    /** The windows this size can report: 5, 10, 30 and 60 s, as far as the run is long, and the run itself. */
    private List<Integer> windows() {
        int seconds = (int) bench.size().coldLength().toSeconds();
        List<Integer> windows = new ArrayList<>(Arrays.stream(WINDOWS).filter(w -> w < seconds).boxed().toList());
        windows.add(seconds);
        return windows;
    }

    /**
     * The first second t from which the cold run, over [t, t + 5 s), answers at least 80 % of the warm run's steady
     * rate (its second half); NaN when that never happens within the run.
     */
    private static double secondsToTarget(Measured m) {
        double span = Math.min(5, m.cold().seconds());
        double steady = m.warm().perSecond(m.warm().seconds() / 2, m.warm().seconds());
        for (int t = 0; t + span <= m.cold().seconds(); t++) {
            if (m.cold().perSecond(t, t + span) >= TARGET_SHARE * steady) {
                return t;
            }
        }
        return Double.NaN;
    }

    /**
     * The same sale from this phase's generator and from wrk, alternately, on the warm main instance: if the
     * generator (JDK HttpClient in this JVM) limited the rate, its answers per second would fall short of wrk's.
     */
    private Map<String, Object> generatorCheck() {
        BenchSize size = bench.size();
        Duration length = size.roundLength();
        List<Double> timed = new ArrayList<>();
        List<Double> wrk = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            long sku = flashSku();
            timed.add(load.place(bench.service().apiUrl(), sku, size.flashConnections(), length)
                    .perSecond(0, length.toSeconds()));
            long other = flashSku();
            Wrk.Run run = bench.wrk().place(size.flashConnections(), length, other, other);
            wrk.add(run.requests() / run.seconds());
            clearance.cancelPending();
        }
        bench.results().info(NAME, "load generator against wrk, same sale on the warm instance, median",
                String.format("%.0f against %.0f answers/s", Stats.median(timed), Stats.median(wrk)));
        return Map.of("timedLoadAnswersPerSecond", timed.stream().map(v -> Stats.round(v, 1)).toList(),
                "wrkAnswersPerSecond", wrk.stream().map(v -> Stats.round(v, 1)).toList());
    }

    private String describe(double seconds) {
        return Double.isNaN(seconds) ? "not within " + bench.size().coldLength().toSeconds() + " s"
                : String.format("%.0f s", seconds);
    }

    private Map<String, Object> report(Variant variant, List<Measured> rounds) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("variant", variant.name());
        entry.put("description", variant.description());
        entry.put("command", variant.runtime().command(Map.of()));
        entry.put("startupMs", rounds.stream().map(Measured::startupMs).toList());
        List<Map<String, Object>> windows = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (int w : windows()) {
            double cold = Stats.median(rounds.stream().map(m -> m.cold().perSecond(0, w)).toList());
            double warm = Stats.median(rounds.stream().map(m -> m.warm().perSecond(0, w)).toList());
            double coldP99 = Stats.median(rounds.stream().map(m -> m.cold().latencyPercentile(0, w, 99)).toList());
            double warmP99 = Stats.median(rounds.stream().map(m -> m.warm().latencyPercentile(0, w, 99)).toList());
            Map<String, Object> window = new LinkedHashMap<>();
            window.put("firstSeconds", w);
            window.put("coldAnswersPerSecond", Stats.round(cold, 1));
            window.put("warmAnswersPerSecond", Stats.round(warm, 1));
            window.put("coldP99Ms", Stats.round(coldP99, 1));
            window.put("warmP99Ms", Stats.round(warmP99, 1));
            window.put("coldPlaced", rounds.stream().map(m -> m.cold().count(0, w, 201)).toList());
            windows.add(window);
            line.append(String.format("%s%d s: %.0f/s p99 %.0f ms (warm %.0f/s, %.0f ms)", line.isEmpty() ? "" : "; ",
                    w, cold, coldP99, warm, warmP99));
        }
        List<Double> toTarget = rounds.stream().map(ColdStartPhase::secondsToTarget).toList();
        boolean reached = toTarget.stream().noneMatch(t -> Double.isNaN(t));
        double medianToTarget = reached ? Stats.median(toTarget) : Double.NaN;
        entry.put("windows", windows);
        entry.put("secondsTo80PercentOfWarm", toTarget);
        entry.put("coldRatePerSecond", rounds.stream().map(m -> m.cold().ratePerSecond().stream()
                .map(v -> Stats.round(v, 1)).toList()).toList());
        entry.put("warmRatePerSecond", rounds.stream().map(m -> m.warm().ratePerSecond().stream()
                .map(v -> Stats.round(v, 1)).toList()).toList());
        String label = variant.name() + " (" + variant.description() + ")";
        bench.results().info(NAME, label + ", first", line.toString());
        bench.results().info(NAME, label + ", start-up (spawn to ready), median", String.format("%.0f ms",
                Stats.median(rounds.stream().map(m -> (double) m.startupMs()).toList())));
        bench.results().info(NAME, label + ", time to 80 % of warm, median", describe(medianToTarget));
        return entry;
    }
}
