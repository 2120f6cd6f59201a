package com.shop.orders.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.harness.ServiceStack;
import com.shop.orders.testsupport.Timings;

/**
 * The benchmark: {@code Benchmark <full|quick> [phases]} (bench/run.sh builds what it needs first), where phases is
 * a comma-separated choice of watch, notify, wallets, placement, flash, tracing, cold, tls and soak (all but the soak
 * by default: its hour runs only when named, bench/run.sh soak). Starts
 * its own MariaDB, Redis, RocketMQ broker, Alipay and WeChat Pay sandboxes and one packaged service as its own process
 * (production profile), runs the phases, prints each figure against its target, and writes
 * bench/results/&lt;timestamp&gt;.json and .html. Speed targets are reported as PASS or MISS; they never fail the run.
 */
public final class Benchmark {

    /** The files a run wrote, and its results. */
    record Outcome(Path json, Path html, Results results) {
    }

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private Benchmark() {
    }

    /** A phase: the name the command line knows it by, the name it reports under, and how it runs. */
    private record Phase(String option, String name, Consumer<Bench> body) {
    }

    /**
     * In the order they run: the watch first, on a broker that holds no other half messages; the notifies, and both
     * wallets side by side, while the service has no expiries to work off; then the placement load; the tracing cost and last the cold start,
     * which add instances, and the cost of TLS, on a stack of its own; after everything the soak, an hour of mixed
     * traffic on the service as the other phases left it (a run has it only when it is named).
     * Each phase that measures a rate warms the service up itself, so its figures do not depend on which phases ran
     * before it.
     */
    private static final List<Phase> ALL = List.of(
            new Phase("watch", WatchPhase.NAME, bench -> new WatchPhase(bench).run()),
            new Phase("notify", NotifyPhase.NAME, bench -> new NotifyPhase(bench).run()),
            new Phase("wallets", WalletsPhase.NAME, bench -> new WalletsPhase(bench).run()),
            new Phase("placement", PlacementPhase.NAME, bench -> new PlacementPhase(bench).run()),
            new Phase("flash", FlashSalePhase.NAME, bench -> new FlashSalePhase(bench).run()),
            new Phase("tracing", TracingPhase.NAME, bench -> new TracingPhase(bench).run()),
            new Phase("cold", ColdStartPhase.NAME, bench -> new ColdStartPhase(bench).run()),
            new Phase("tls", SecureConnectionsPhase.NAME, bench -> new SecureConnectionsPhase(bench).run()),
            new Phase(SoakPhase.OPTION, SoakPhase.NAME, bench -> new SoakPhase(bench).run()));

    /** The phases by the names the command line knows them by: every one (BenchmarkIT's quick run has them all). */
    static final List<String> PHASES = ALL.stream().map(Phase::option).toList();

    /** The phases of a run that names none: all but the soak, whose hour is for runs that ask for it. */
    static final List<String> DEFAULT_PHASES = PHASES.stream().filter(phase -> !phase.equals(SoakPhase.OPTION))
            .toList();

    public static void main(String[] args) {
        List<String> phases = args.length > 1 ? List.of(args[1].split(",")) : DEFAULT_PHASES;
        if (!PHASES.containsAll(phases)) {
            throw new IllegalArgumentException("phases are a comma-separated choice of " + PHASES + ", not " + args[1]);
        }
        Outcome outcome = run(BenchSize.of(args.length > 0 ? args[0] : "full"), phases, Path.of("bench/results"));
        System.exit(outcome.results().problems().isEmpty() ? 0 : 1);
    }

    static Outcome run(BenchSize size, List<String> phases, Path resultsDir) {
        Path project = Path.of("").toAbsolutePath();
        String stamp = STAMP.format(java.time.Instant.now());
        Path runDir = project.resolve("target/bench/" + stamp);
        Results results = new Results(size.name());
        // Production's broker schedule (first check 6 s, then every 5 s); the sweep far behind so it cannot mask
        // the watch; Alipay queried 5 s after placement, then every 10 s, so a lost notify can be found in the bound.
        Timings timings = Timings.bench().withPayTimeout(size.payTimeout())
                .withSweep(Duration.ofSeconds(15), Duration.ofHours(1))
                .withQuery(Duration.ofSeconds(5), Duration.ofSeconds(10));
        results.put("timings", timings.serviceSettings());
        Progress.say("%s benchmark: starting MariaDB, Redis, RocketMQ, the wallets' sandboxes and the packaged service", size.name());
        try (ServiceStack stack = ServiceStack.start(runDir.resolve("stack"), 1, timings, Map.of())) {
            ServiceProcess service = stack.replicas().get(0);
            Progress.say("service (%s) up in %d ms (pid %d, %s)", service.artifact().kind(),
                    service.startupTime().toMillis(), service.pid(), service.apiUrl());
            try (RssSampler rss = new RssSampler(service)) {
                Bench bench = new Bench(size, stack, service, runDir,
                        Tokens.write(stack.tokens(), size.members(), runDir.resolve("tokens.csv")), new Catalog(stack),
                        new OrderFacts(stack), new Wrk(project.resolve("bench/wrk/place-orders.lua"),
                                runDir.resolve("tokens.csv"), service.apiUrl()),
                        new Gatling(project.resolve("bench/gatling"), runDir.resolve("gatling")),
                        new PlacementLimit(stack), new BrokerAdmin(stack, project), results, rss);
                bench.gatling().ensureBuilt();
                double idleRss = service.rssBytes() / 1048576.0;
                for (Phase phase : ALL) {
                    if (phases.contains(phase.option())) {
                        run(bench, phase);
                    }
                }
                startup(bench, idleRss);
            }
        } catch (RuntimeException e) {
            results.problem("the run failed: " + e);
            e.printStackTrace();
        }
        Path json = resultsDir.toAbsolutePath().resolve(stamp + ".json");
        Path html = resultsDir.toAbsolutePath().resolve(stamp + ".html");
        results.writeJson(json);
        HtmlReport.write(results, html);
        System.out.println();
        System.out.println("Summary (" + size.name() + "):");
        System.out.print(results.summaryTable());
        Progress.say("results: %s and %s", json, html);
        return new Outcome(json, html, results);
    }

    private static void run(Bench bench, Phase phase) {
        String name = phase.name();
        Drain.await(bench, "phase " + name);
        Progress.say("phase %s", name);
        bench.rss().phase(name);
        long start = System.nanoTime();
        try {
            phase.body().accept(bench);
        } catch (RuntimeException e) {
            bench.results().problem(name + " failed: " + e);
            e.printStackTrace();
        }
        bench.results().phase(name).put("phaseSeconds", Stats.round((System.nanoTime() - start) / 1e9, 1));
        Progress.say("phase %s done in %.0f s", name, (System.nanoTime() - start) / 1e9);
    }

    /** Phase 6: start-up time and RSS, idle and under each phase's load. */
    private static void startup(Bench bench, double idleRss) {
        String name = "6 start-up and RSS";
        Map<String, Object> figures = bench.results().phase(name);
        long startup = bench.service().startupTime().toMillis();
        figures.put("artifact", bench.service().artifact().kind());
        figures.put("startupMs", startup);
        figures.put("rssIdleMb", Stats.round(idleRss, 1));
        Map<String, Object> peaks = new LinkedHashMap<>();
        for (Phase phase : ALL) {
            peaks.put(phase.name(), Stats.round(bench.rss().peakMb(phase.name()), 1));
        }
        figures.put("rssPeakMbByPhase", peaks);
        figures.put("rssPeakMb", Stats.round(bench.rss().peakMb(null), 1));
        figures.put("rssSamples", bench.rss().samples().stream()
                .map(s -> List.of(s.atMs() / 1000.0, s.phase(), Stats.round(s.rssBytes() / 1048576.0, 1))).toList());
        bench.results().info(name, "service artifact", bench.service().artifact().kind());
        bench.results().info(name, "start-up time (spawn to ready)", startup + " ms");
        bench.results().info(name, "RSS idle after start", String.format("%.0f MB", idleRss));
        bench.results().info(name, "RSS peak under load", String.format("%.0f MB", bench.rss().peakMb(null)));
        List<String> categories = new ArrayList<>(List.of("idle"));
        List<Double> values = new ArrayList<>(List.of(idleRss));
        for (Phase phase : ALL) {
            categories.add(phase.option());
            values.add(bench.rss().peakMb(phase.name()));
        }
        bench.results().chart(Svg.bars("Service RSS: idle and peak per phase", "MB", categories,
                List.of(new Svg.Series("RSS", values))));
    }
}
