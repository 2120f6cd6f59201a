package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.testsupport.OtlpReceiver;
import com.shop.orders.testsupport.Pause;

/**
 * Phase 8: what tracing costs. Three instances of the service, alike but for tracing (off; on, keeping 10 % of new
 * traces; on, keeping all), export to an OTLP/HTTP collector in the benchmark's process, which only counts what it
 * receives. Each is warmed up at 32 connections, then gets the same offered load, orders at a fixed rate (Gatling's
 * open model), in interleaved rounds (the order rotating; a first round settles them and is not counted), each round
 * starting when the services are idle. The figure is the service's own CPU milliseconds per placed order (from
 * /proc): each round's traced figure over the same round's untraced one, median of the rounds; beside it, where that
 * CPU went by kind of thread, and the answers' latency. Each instance has an expiry pipeline of its own, so that it
 * does the work of its own orders only.
 * <p>
 * A fixed rate below saturation, because at saturation the figure measured the host rather than the service: under
 * closed-model load at 32 connections the service took the same share of the 2 cores in every round (0.83 to 0.91 of
 * a core, all three settings), so its CPU per order was the inverse of a throughput that the database, the broker,
 * the load generator and the host's neighbours set as much as it did.
 */
final class TracingPhase {

    static final String NAME = "8 tracing cost";
    private static final int WARM_UP_CONNECTIONS = 32;
    /** Orders per second in the measured rounds: about a third of what an instance placed at saturation here. */
    private static final int RATE = 400;

    private record Variant(String name, Map<String, String> settings) {
    }

    private final Bench bench;
    private final Clearance clearance;

    TracingPhase(Bench bench) {
        this.bench = bench;
        this.clearance = new Clearance(bench);
    }

    void run() {
        BenchSize size = bench.size();
        Map<String, Object> figures = bench.results().phase(NAME);
        Catalog.Range skus = bench.catalog().create(size.spreadSkus(), 100_000_000);
        try (OtlpReceiver collector = start()) {
            List<Variant> variants = List.of(
                    new Variant("off", Map.of("quarkus.otel.sdk.disabled", "true")),
                    traced("ratio 0.1", "0.1", collector),
                    traced("ratio 1.0", "1.0", collector));
            Map<String, ServiceProcess> instances = new LinkedHashMap<>();
            try {
                for (Variant variant : variants) {
                    String name = "tracing-" + variant.name().replace(' ', '-').replace('.', '-');
                    bench.stack().rocketMq().createTopics(name + "-expiry");
                    ServiceProcess instance = bench.stack().addReplica(name, bench.service().artifact(),
                            isolated(name, variant.settings()));
                    instance.start();
                    instances.put(variant.name(), instance);
                }
                for (Variant variant : variants) {
                    Progress.say("  warm-up of tracing %s: %d s of placement at %d connections", variant.name(),
                            size.placementWarmUp().toSeconds(), WARM_UP_CONNECTIONS);
                    bench.wrk().with(bench.tokens(), instances.get(variant.name()).apiUrl())
                            .place(WARM_UP_CONNECTIONS, size.placementWarmUp(), skus.from(), skus.to());
                }
                clearance.cancelPending();
                Map<String, List<Double>> cpu = new LinkedHashMap<>();
                Map<String, List<Gatling.Request>> answers = new LinkedHashMap<>();
                Map<String, Map<String, List<Double>>> byThread = new LinkedHashMap<>();
                variants.forEach(variant -> {
                    cpu.put(variant.name(), new ArrayList<>());
                    answers.put(variant.name(), new ArrayList<>());
                    byThread.put(variant.name(), new LinkedHashMap<>());
                });
                // The benchmark's own service cancels what a round left (its announcements go on a while).
                List<ServiceProcess> busy = new ArrayList<>(instances.values());
                busy.add(bench.service());
                int rounds = size.rounds() + 2;
                Duration length = size.roundLength().multipliedBy(3);
                figures.put("roundSeconds", length.toSeconds());
                // Round 0 settles each instance after the warm-up and the long clearance that follows it, and is not
                // counted: a first round cost 1.4 to 2.8 times the later ones, with tracing off too.
                for (int round = 0; round <= rounds; round++) {
                    for (int i = 0; i < variants.size(); i++) {
                        Variant variant = variants.get((i + round) % variants.size());
                        ServiceProcess instance = instances.get(variant.name());
                        awaitQuiet(busy, length.multipliedBy(4));
                        double before = CpuMeter.processMs(instance.pid());
                        Map<String, Double> threadsBefore = CpuMeter.threadMs(instance.pid());
                        Gatling.Request place = placeAtRate(instance, length, skus);
                        long placed = Math.max(1, place.ok());
                        double msPerOrder = (CpuMeter.processMs(instance.pid()) - before) / placed;
                        Map<String, Double> threadsAfter = CpuMeter.threadMs(instance.pid());
                        if (place.ko() > 0) {
                            bench.results().problem("tracing " + variant.name() + ": " + place.ko() + " of "
                                    + place.total() + " orders failed");
                        }
                        Progress.say("  tracing %s, %s: %d orders at %d/s (p99 %.0f ms), service %.3f CPU ms per order",
                                variant.name(), round == 0 ? "settling round" : "round " + round, place.ok(), RATE,
                                place.p99(), msPerOrder);
                        if (round > 0) {
                            cpu.get(variant.name()).add(Stats.round(msPerOrder, 4));
                            answers.get(variant.name()).add(place);
                            threadsAfter.forEach((kind, ms) -> byThread.get(variant.name())
                                    .computeIfAbsent(kind, k -> new ArrayList<>())
                                    .add(Stats.round((ms - threadsBefore.getOrDefault(kind, 0.0)) / placed, 4)));
                        }
                        clearance.cancelPending();
                    }
                }
                report(figures, cpu, answers, collector);
                reportByThread(figures, byThread);
            } finally {
                instances.values().forEach(ServiceProcess::close);
            }
        }
    }

    private void report(Map<String, Object> figures, Map<String, List<Double>> cpu,
            Map<String, List<Gatling.Request>> answers, OtlpReceiver collector) {
        List<Double> tenthOverOff = ratios(cpu.get("ratio 0.1"), cpu.get("off"));
        List<Double> allOverOff = ratios(cpu.get("ratio 1.0"), cpu.get("off"));
        figures.put("ordersPerSecond", RATE);
        figures.put("serviceCpuMsPerOrder", cpu);
        figures.put("latencyMs", latencies(answers));
        figures.put("overOffByRound", Map.of("ratio 0.1", tenthOverOff, "ratio 1.0", allOverOff));
        figures.put("spansReceived", collector.spanCount());
        double off = Stats.median(cpu.get("off"));
        double tenth = Stats.median(cpu.get("ratio 0.1"));
        double all = Stats.median(cpu.get("ratio 1.0"));
        bench.results().info(NAME, "service CPU ms per placed order at " + RATE + " orders/s (median of rounds)",
                String.format("off %.3f, ratio 0.1 %.3f, ratio 1.0 %.3f", off, tenth, all));
        double tenthCost = Stats.median(tenthOverOff) - 1;
        bench.results().verdict(NAME, "CPU per order at ratio 0.1 over tracing off, median of the rounds' ratios",
                percents(tenthOverOff), "<= +10 %", tenthCost <= 0.10);
        bench.results().info(NAME, "CPU per order at ratio 1.0 over tracing off, median of the rounds' ratios",
                percents(allOverOff));
        if (collector.spanCount() == 0) {
            bench.results().problem("tracing: the collector received no span from the traced instances");
        }
        bench.results().chart(Svg.bars("Service CPU per placed order at " + RATE
                + " orders/s by tracing (medians of rounds)", "CPU ms per order", List.of("off", "ratio 0.1", "ratio 1.0"),
                List.of(new Svg.Series("service", List.of(off, tenth, all)))));
    }

    /** Each setting's answer times at the fixed rate, p50 and p99: medians of the rounds. */
    private Map<String, Map<String, Double>> latencies(Map<String, List<Gatling.Request>> answers) {
        Map<String, Map<String, Double>> latencies = new LinkedHashMap<>();
        answers.forEach((variant, rounds) -> {
            double p50 = Stats.median(rounds.stream().map(Gatling.Request::p50).toList());
            double p99 = Stats.median(rounds.stream().map(Gatling.Request::p99).toList());
            latencies.put(variant, Map.of("p50", p50, "p99", p99));
            bench.results().info(NAME, "answer time at " + RATE + " orders/s, " + variant + " (median of rounds)",
                    String.format("p50 %.0f ms, p99 %.0f ms", p50, p99));
        });
        return latencies;
    }

    /** Where each setting's CPU per order went, by kind of thread: medians of the rounds. */
    private void reportByThread(Map<String, Object> figures, Map<String, Map<String, List<Double>>> byThread) {
        Map<String, Map<String, Double>> medians = new LinkedHashMap<>();
        byThread.forEach((variant, kinds) -> {
            Map<String, Double> perKind = new LinkedHashMap<>();
            kinds.forEach((kind, values) -> perKind.put(kind, Stats.round(Stats.median(values), 4)));
            medians.put(variant, perKind);
            bench.results().info(NAME, "CPU ms per order by thread, " + variant + " (median of rounds)",
                    perKind.toString());
        });
        figures.put("serviceCpuMsPerOrderByThread", medians);
    }

    /**
     * Each round's figure over the same round's untraced one. A round measures the three within a minute or two, so
     * the host's load, which drifts over a run by more than the difference sought, weighs on both sides of a ratio.
     */
    private static List<Double> ratios(List<Double> figures, List<Double> baseline) {
        List<Double> ratios = new ArrayList<>();
        for (int round = 0; round < figures.size(); round++) {
            ratios.add(Stats.round(figures.get(round) / baseline.get(round), 4));
        }
        return ratios;
    }

    private static String percents(List<Double> ratios) {
        return String.format("%+.1f %% (rounds %+.1f to %+.1f %%)", (Stats.median(ratios) - 1) * 100,
                (Stats.min(ratios) - 1) * 100, (Stats.max(ratios) - 1) * 100);
    }

    /**
     * Waits, at most {@code limit}, until the services are idle together (below a tenth of a core over a second): the
     * expiries, check-backs and span exports an earlier round or the clearance left must not count against the next
     * round's orders, nor run beside them. (The first round of a traced instance still costs more than its later ones: the JIT, not
     * leftover work.)
     */
    private static void awaitQuiet(Collection<ServiceProcess> instances, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        double busyMs = Double.MAX_VALUE;
        while (busyMs > 100 && System.nanoTime() < deadline) {
            double before = cpuMs(instances);
            Pause.of(Duration.ofSeconds(1));
            busyMs = cpuMs(instances) - before;
        }
        if (busyMs > 100) {
            Progress.say("  the services were still busy after %d s (%.0f CPU ms per second)", limit.toSeconds(),
                    busyMs);
        }
    }

    private static double cpuMs(Collection<ServiceProcess> instances) {
        return instances.stream().mapToDouble(instance -> CpuMeter.processMs(instance.pid())).sum();
    }

    /**
     * An expiry pipeline of its own (topic, producer and consumer group): each instance then answers the check-backs
     * and closes the orders it placed, no more. In one group, the broker spread other instances' check-backs and
     * expiries over them unevenly, and CPU per order differed by instance, not by setting.
     */
    private static Map<String, String> isolated(String name, Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.put("shop.expiry.topic", name + "-expiry");
        all.put("shop.expiry.producer-group", name + "-expiry-producer");
        all.put("shop.expiry.consumer-group", name + "-expiry-consumer");
        return all;
    }

    private static Variant traced(String name, String ratio, OtlpReceiver collector) {
        return new Variant(name, Map.of("quarkus.otel.sdk.disabled", "false",
                "quarkus.otel.exporter.otlp.traces.endpoint", collector.endpoint(),
                "quarkus.otel.traces.sampler.arg", ratio));
    }

    /**
     * Orders at {@link #RATE} to {@code instance} for {@code length}, no warm-up (the instance is warm); the figures of
     * the "place" requests. The CPU window around it also holds the load generator's start, a few seconds in which
     * the instance is idle (its timers and pollers, alike for the three).
     */
    private Gatling.Request placeAtRate(ServiceProcess instance, Duration length, Catalog.Range skus) {
        Map<String, String> props = Gatling.placeAtFixedRate(bench, instance, RATE, length, Duration.ZERO, skus.from(),
                skus.to(), 0, bench.tokens());
        Gatling.Request place = bench.gatling().run("PlaceOrdersAtFixedRate", props, length).get("place");
        if (place == null || place.total() == 0) {
            throw new IllegalStateException("tracing: Gatling reported no order placed on " + instance.apiUrl());
        }
        return place;
    }

    private static OtlpReceiver start() {
        try {
            return OtlpReceiver.counting();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
