package com.shop.orders.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.harness.ServiceStack;
import com.shop.orders.testsupport.Timings;

/**
 * The benchmark: {@code Benchmark <full|quick> [phases]} (bench/run.sh builds what it needs first), where phases is
 * a comma-separated choice of watch, notify, placement and flash (all by default). Starts its own MariaDB,
 * Redis, RocketMQ broker, Alipay sandbox and one packaged service as its own process (production profile), runs
 * the phases, prints each figure against its target, and writes bench/results/&lt;timestamp&gt;.json and .html.
 * Speed targets are reported as PASS or MISS; they never fail the run.
 */
public final class Benchmark {

    /** The files a run wrote, and its results. */
    record Outcome(Path json, Path html, Results results) {
    }

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private Benchmark() {
    }

    /** The phases by the names the command line knows them by, in the order they run. */
    static final List<String> PHASES = List.of("watch", "notify", "placement", "flash");

    public static void main(String[] args) {
        List<String> phases = args.length > 1 ? List.of(args[1].split(",")) : PHASES;
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
        Progress.say("%s benchmark: starting MariaDB, Redis, RocketMQ, the Alipay sandbox and the packaged service", size.name());
        try (ServiceStack stack = ServiceStack.start(runDir.resolve("stack"), 1, timings, Map.of())) {
            ServiceProcess service = stack.replicas().get(0);
            Progress.say("service up in %d ms (pid %d, %s)", service.startupTime().toMillis(), service.pid(), service.apiUrl());
            try (RssSampler rss = new RssSampler(service)) {
                Bench bench = new Bench(size, stack, service, runDir,
                        Tokens.write(stack.tokens(), size.members(), runDir.resolve("tokens.csv")), new Catalog(stack),
                        new OrderFacts(stack), new Wrk(project.resolve("bench/wrk/place-orders.lua"),
                                runDir.resolve("tokens.csv"), service.apiUrl()),
                        new Gatling(project.resolve("bench/gatling"), runDir.resolve("gatling")),
                        new PlacementLimit(stack), new BrokerAdmin(stack, project), results, rss);
                bench.gatling().ensureBuilt();
                double idleRss = service.rssBytes() / 1048576.0;
                // The watch first, on a broker that holds no other half messages; the notifies while the service
                // has no expiries to work off; then the placement load.
                if (phases.contains("watch")) {
                    phase(bench, WatchPhase.NAME, () -> new WatchPhase(bench).run());
                }
                if (phases.contains("notify")) {
                    phase(bench, NotifyPhase.NAME, () -> new NotifyPhase(bench).run());
                }
                if (phases.contains("placement")) {
                    phase(bench, PlacementPhase.NAME, () -> new PlacementPhase(bench).run());
                }
                if (phases.contains("flash")) {
                    phase(bench, FlashSalePhase.NAME, () -> new FlashSalePhase(bench).run());
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

    private static void phase(Bench bench, String name, Runnable phase) {
        Drain.await(bench, "phase " + name);
        Progress.say("phase %s", name);
        bench.rss().phase(name);
        long start = System.nanoTime();
        try {
            phase.run();
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
        figures.put("startupMs", startup);
        figures.put("rssIdleMb", Stats.round(idleRss, 1));
        Map<String, Object> peaks = new LinkedHashMap<>();
        for (String phase : List.of(WatchPhase.NAME, PlacementPhase.NAME, FlashSalePhase.NAME, NotifyPhase.NAME)) {
            peaks.put(phase, Stats.round(bench.rss().peakMb(phase), 1));
        }
        figures.put("rssPeakMbByPhase", peaks);
        figures.put("rssPeakMb", Stats.round(bench.rss().peakMb(null), 1));
        figures.put("rssSamples", bench.rss().samples().stream()
                .map(s -> List.of(s.atMs() / 1000.0, s.phase(), Stats.round(s.rssBytes() / 1048576.0, 1))).toList());
        bench.results().info(name, "start-up time (spawn to ready)", startup + " ms");
        bench.results().info(name, "RSS idle after start", String.format("%.0f MB", idleRss));
        bench.results().info(name, "RSS peak under load", String.format("%.0f MB", bench.rss().peakMb(null)));
        bench.results().chart(Svg.bars("Service RSS: idle and peak per phase", "MB",
                List.of("idle", "watch", "placement", "flash sale", "notify"), List.of(new Svg.Series("RSS",
                        List.of(idleRss, bench.rss().peakMb(WatchPhase.NAME), bench.rss().peakMb(PlacementPhase.NAME),
                                bench.rss().peakMb(FlashSalePhase.NAME), bench.rss().peakMb(NotifyPhase.NAME))))));
    }
}
