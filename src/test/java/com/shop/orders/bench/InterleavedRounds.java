package com.shop.orders.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.testsupport.Pause;

/**
 * Instances of the service alike but for one setting, compared under the same offered load. Each is warmed up at 32
 * connections, then gets orders at a fixed rate (Gatling's open model) in interleaved rounds (the order rotating; a
 * first round settles them and is not counted), each round starting when the services are idle. Per counted round
 * and instance: the service's own CPU milliseconds per placed order (from /proc), where it went by kind of thread,
 * and the answers' latency. A phase reports one setting against another as each round's figure over the same round's
 * baseline, median of the rounds: a round measures them all within a minute or two, so the host's load, which drifts
 * over a run by more than the differences sought, weighs on both sides of a ratio.
 * <p>
 * A fixed rate below saturation, because at saturation the figure measured the host rather than the service: under
 * closed-model load at 32 connections the service took the same share of the 2 cores in every round (0.83 to 0.91 of
 * a core, whatever the setting), so its CPU per order was the inverse of a throughput that the database, the broker,
 * the load generator and the host's neighbours set as much as it did.
 */
final class InterleavedRounds {

    private static final int WARM_UP_CONNECTIONS = 32;

    /** What the counted rounds measured, by instance: one entry per round. */
    record Figures(Map<String, List<Double>> cpuMsPerOrder, Map<String, List<Gatling.Request>> answers,
                   Map<String, Map<String, List<Double>>> cpuMsPerOrderByThread) {

        double medianCpu(String instance) {
            return Stats.median(cpuMsPerOrder.get(instance));
        }

        /** Each round's CPU per order of {@code instance} over the same round's of {@code baseline}. */
        List<Double> overBaseline(String instance, String baseline) {
            List<Double> figures = cpuMsPerOrder.get(instance);
            List<Double> base = cpuMsPerOrder.get(baseline);
            List<Double> ratios = new ArrayList<>();
            for (int round = 0; round < figures.size(); round++) {
                ratios.add(Stats.round(figures.get(round) / base.get(round), 4));
            }
            return ratios;
        }
    }

    private final Bench bench;
    private final String phase;
    private final int rate;
    private final int rounds;
    private final Clearance clearance;

    /** @param rate orders per second in the measured rounds, well below what one instance places at saturation */
    InterleavedRounds(Bench bench, String phase, int rate) {
        this.bench = bench;
        this.phase = phase;
        this.rate = rate;
        this.rounds = rounds(bench.size());
        this.clearance = new Clearance(bench);
    }

    /** Rounds counted after the settling round: the quick size proves the phase runs, with one (and no settling). */
    static int rounds(BenchSize size) {
        return size.quick() ? 1 : size.rounds() + 2;
    }

    /** Warms the instances (started) up, then runs the rounds. */
    Figures run(Map<String, ServiceProcess> instances, Catalog.Range skus) {
        BenchSize size = bench.size();
        instances.forEach((name, instance) -> {
            Progress.say("  warm-up of %s: %d s of placement at %d connections", name,
                    size.placementWarmUp().toSeconds(), WARM_UP_CONNECTIONS);
            bench.wrk().with(bench.tokens(), instance.apiUrl())
                    .place(WARM_UP_CONNECTIONS, size.placementWarmUp(), skus.from(), skus.to());
        });
        clearance.cancelPending();
        Figures figures = new Figures(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
        List<String> names = new ArrayList<>(instances.keySet());
        names.forEach(name -> {
            figures.cpuMsPerOrder().put(name, new ArrayList<>());
            figures.answers().put(name, new ArrayList<>());
            figures.cpuMsPerOrderByThread().put(name, new LinkedHashMap<>());
        });
        // The bench's own service cancels what a round left (its announcements go on a while).
        List<ServiceProcess> busy = new ArrayList<>(instances.values());
        busy.add(bench.service());
        Duration length = size.roundLength().multipliedBy(3);
        bench.results().phase(phase).put("roundSeconds", length.toSeconds());
        bench.results().phase(phase).put("ordersPerSecond", rate);
        // Round 0 settles each instance after the warm-up and the long clearance that follows it, and is not
        // counted: a first round cost 1.4 to 2.8 times the later ones, whatever the setting. The quick size only
        // proves that the phase runs, and goes without it.
        for (int round = bench.size().quick() ? 1 : 0; round <= rounds; round++) {
            for (int i = 0; i < names.size(); i++) {
                String name = names.get((i + round) % names.size());
                ServiceProcess instance = instances.get(name);
                awaitQuiet(busy, length.multipliedBy(4));
                double before = CpuMeter.processMs(instance.pid());
                Map<String, Double> threadsBefore = CpuMeter.threadMs(instance.pid());
                Gatling.Request place = placeAtRate(instance, length, skus);
                long placed = Math.max(1, place.ok());
                double msPerOrder = (CpuMeter.processMs(instance.pid()) - before) / placed;
                Map<String, Double> threadsAfter = CpuMeter.threadMs(instance.pid());
                if (place.ko() > 0) {
                    bench.results().problem(phase + ", " + name + ": " + place.ko() + " of " + place.total()
                            + " orders failed");
                }
                Progress.say("  %s, %s: %d orders at %d/s (p99 %.0f ms), service %.3f CPU ms per order", name,
                        round == 0 ? "settling round" : "round " + round, place.ok(), rate, place.p99(), msPerOrder);
                if (round > 0) {
                    figures.cpuMsPerOrder().get(name).add(Stats.round(msPerOrder, 4));
                    figures.answers().get(name).add(place);
                    threadsAfter.forEach((kind, ms) -> figures.cpuMsPerOrderByThread().get(name)
                            .computeIfAbsent(kind, k -> new ArrayList<>())
                            .add(Stats.round((ms - threadsBefore.getOrDefault(kind, 0.0)) / placed, 4)));
                }
                clearance.cancelPending();
            }
        }
        Map<String, Object> results = bench.results().phase(phase);
        results.put("serviceCpuMsPerOrder", figures.cpuMsPerOrder());
        results.put("latencyMs", latencies(figures));
        results.put("serviceCpuMsPerOrderByThread", byThread(figures));
        return figures;
    }

    /** "+4.2 % (rounds -1.0 to +9.8 %)": the median of the rounds' ratios and their range. */
    static String percents(List<Double> ratios) {
        return String.format("%+.1f %% (rounds %+.1f to %+.1f %%)", (Stats.median(ratios) - 1) * 100,
                (Stats.min(ratios) - 1) * 100, (Stats.max(ratios) - 1) * 100);
    }

    /**
     * An expiry pipeline of its own (topic, producer and consumer group): each instance then answers the check-backs
     * and closes the orders it placed, no more. In one group, the broker spread other instances' check-backs and
     * expiries over them unevenly, and CPU per order differed by instance, not by setting.
     */
    static Map<String, String> isolated(String name, Map<String, String> settings) {
        Map<String, String> all = new LinkedHashMap<>(settings);
        all.put("shop.expiry.topic", name + "-expiry");
        all.put("shop.expiry.producer-group", name + "-expiry-producer");
        all.put("shop.expiry.consumer-group", name + "-expiry-consumer");
        return all;
    }

    /** Each instance's answer times at the fixed rate, p50 and p99: medians of the rounds. */
    private Map<String, Map<String, Double>> latencies(Figures figures) {
        Map<String, Map<String, Double>> latencies = new LinkedHashMap<>();
        figures.answers().forEach((name, rounds) -> {
            double p50 = Stats.median(rounds.stream().map(Gatling.Request::p50).toList());
            double p99 = Stats.median(rounds.stream().map(Gatling.Request::p99).toList());
            latencies.put(name, Map.of("p50", p50, "p99", p99));
            bench.results().info(phase, "answer time at " + rate + " orders/s, " + name + " (median of rounds)",
                    String.format("p50 %.0f ms, p99 %.0f ms", p50, p99));
        });
        return latencies;
    }

    /** Where each instance's CPU per order went, by kind of thread: medians of the rounds. */
    private Map<String, Map<String, Double>> byThread(Figures figures) {
        Map<String, Map<String, Double>> medians = new LinkedHashMap<>();
        figures.cpuMsPerOrderByThread().forEach((name, kinds) -> {
            Map<String, Double> perKind = new LinkedHashMap<>();
            kinds.forEach((kind, values) -> perKind.put(kind, Stats.round(Stats.median(values), 4)));
            medians.put(name, perKind);
            bench.results().info(phase, "CPU ms per order by thread, " + name + " (median of rounds)",
                    perKind.toString());
        });
        return medians;
    }

    /**
     * Waits, at most {@code limit}, until the services are idle together (below a tenth of a core over a second): the
     * expiries, check-backs and exports an earlier round or the clearance left must not count against the next
     * round's orders, nor run beside them.
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
     * Orders at the rate to {@code instance} for {@code length}, no warm-up (the instance is warm); the figures of the
     * "place" requests. The CPU window around it also holds the load generator's start, a few seconds in which the
     * instance is idle (its timers and pollers, alike for every setting).
     */
    private Gatling.Request placeAtRate(ServiceProcess instance, Duration length, Catalog.Range skus) {
        Map<String, String> props = Gatling.placeAtFixedRate(bench, instance, rate, length, Duration.ZERO, skus.from(),
                skus.to(), 0, bench.tokens());
        Gatling.Request place = bench.gatling().run("PlaceOrdersAtFixedRate", props, length).get("place");
        if (place == null || place.total() == 0) {
            throw new IllegalStateException(phase + ": Gatling reported no order placed on " + instance.apiUrl());
        }
        return place;
    }
}
