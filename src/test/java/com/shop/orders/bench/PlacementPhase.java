package com.shop.orders.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Phases 1 and 2: the database's placement limit on spread SKUs and the service's placement rate at each
 * concurrency, in interleaved rounds (limit, service, limit, service, ...), reported as the median ratio; then
 * the service's latency at a fixed arrival rate (open model, Gatling). Before each round, the orders of the rounds
 * before it are cancelled ({@link Clearance}): a round measures placement, not the expiry of earlier rounds' orders.
 */
final class PlacementPhase {

    static final String NAME = "2 placement spread";

    private final Bench bench;
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private final Clearance clearance;
    private final CpuMeter cpu;

    PlacementPhase(Bench bench) {
        this.bench = bench;
        this.clearance = new Clearance(bench);
        this.cpu = new CpuMeter(bench);
    }

    void run() {
        BenchSize size = bench.size();
        Catalog.Range skus = bench.catalog().create(size.spreadSkus(), 100_000_000);
        Map<String, Object> limitFigures = bench.results().phase("1 limit");
        Map<String, Object> figures = bench.results().phase(NAME);
        List<Map<String, Object>> byConcurrency = new ArrayList<>();
        List<Double> limitMedians = new ArrayList<>();
        List<Double> serviceMedians = new ArrayList<>();
        List<Wrk.Run> medianRuns = new ArrayList<>();
        double guess = 1500;
        // Compiled code, filled pools and caches first: a run of this phase alone would otherwise measure its
        // first rounds on a cold JIT (half the rate of the later ones on 2 cores).
        Progress.say("  warm-up: %d s of placement at 32 connections (not in the figures)", size.placementWarmUp().toSeconds());
        bench.wrk().place(32, size.placementWarmUp(), skus.from(), skus.to());
        for (int connections : size.concurrencies()) {
            List<Double> limits = new ArrayList<>();
            List<Double> services = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            List<Wrk.Run> runs = new ArrayList<>();
            List<Map<String, Double>> limitCpu = new ArrayList<>();
            List<Map<String, Double>> serviceCpu = new ArrayList<>();
            ServiceGc.Totals collections = ServiceGc.NONE;
            for (int round = 1; round <= size.rounds(); round++) {
                clearance.cancelPending();
                CpuMeter.Reading beforeLimit = cpu.read();
                PlacementLimit.Run limit = bench.limit().spread(size.spreadSkus(), connections,
                        (long) (guess * size.roundLength().toMillis() / 1000.0));
                CpuMeter.Reading afterLimit = cpu.read();
                guess = limit.perSecond();
                ServiceGc.Totals gcBefore = ServiceGc.read(bench.service());
                Wrk.Run service = bench.wrk().place(connections, size.roundLength(), skus.from(), skus.to());
                collections = collections.plus(ServiceGc.read(bench.service()).minus(gcBefore));
                limitCpu.add(CpuMeter.perUnit(beforeLimit, afterLimit, limit.transactions()));
                serviceCpu.add(CpuMeter.perUnit(afterLimit, cpu.read(), Math.max(1, service.status(201))));
                long unexpected = service.unexpected(201);
                if (unexpected > 0) {
                    bench.results().problem("spread placement at " + connections + " connections: " + unexpected
                            + " answers other than 201 " + service.statuses() + ", socket errors " + service.socketErrors());
                }
                limits.add(limit.perSecond());
                services.add(service.perSecond(201));
                ratios.add(service.perSecond(201) / limit.perSecond());
                runs.add(service);
                Progress.say("  %d connections, round %d: limit %.0f orders/s, service %.0f orders/s (ratio %.2f, p99 %.1f ms)",
                        connections, round, limit.perSecond(), service.perSecond(201),
                        service.perSecond(201) / limit.perSecond(), service.p99());
            }
            double medianRatio = Stats.median(ratios);
            Wrk.Run median = runs.stream().sorted((a, b) -> Double.compare(a.perSecond(201), b.perSecond(201)))
                    .toList().get(runs.size() / 2);
            medianRuns.add(median);
            limitMedians.add(Stats.median(limits));
            serviceMedians.add(Stats.median(services));
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("connections", connections);
            entry.put("limitOrdersPerSecond", limits.stream().map(v -> Stats.round(v, 1)).toList());
            entry.put("serviceOrdersPerSecond", services.stream().map(v -> Stats.round(v, 1)).toList());
            entry.put("ratios", ratios.stream().map(v -> Stats.round(v, 3)).toList());
            entry.put("medianRatio", Stats.round(medianRatio, 3));
            entry.put("serviceRuns", runs.stream().map(Wrk.Run::toMap).toList());
            entry.put("limitCpuMsPerOrder", limitCpu);
            entry.put("serviceCpuMsPerOrder", serviceCpu);
            entry.put("collections", collections.toMap());
            byConcurrency.add(entry);
            bench.results().info("1 limit", "spread, " + connections + " conns, median",
                    String.format("%.0f orders/s", Stats.median(limits)));
            String figure = "median ratio to limit, " + connections + " conns";
            String value = String.format("%.2f (%.0f/s, p99 %.1f ms)", medianRatio, Stats.median(services), median.p99());
            if (connections == 32) {
                bench.results().verdict(NAME, figure, value, ">= 0.5", medianRatio >= 0.5);
                Map<String, Double> placing = medians(serviceCpu);
                Map<String, Double> limiting = medians(limitCpu);
                bench.results().info(NAME, "CPU ms per order, 32 conns (median of rounds)", String.format(
                        "service %.2f, broker %.2f, MariaDB %.2f, rest %.2f; machine %.2f (limit: machine %.2f, "
                                + "MariaDB %.2f); %d cores allow about %.0f orders/s", placing.get("service"),
                        placing.get("broker"), placing.get("mariadb"), placing.get("rest"), placing.get("machine"),
                        limiting.get("machine"), limiting.get("mariadb"), CORES,
                        CORES * 1000 / placing.get("machine")));
                // Every collection of the executable's serial collector stops every request in flight.
                bench.results().verdict(NAME, "time in collections, 32 conns (service rounds)",
                        ServiceGc.describe(collections), "<= 3 %", collections.pausePercent() <= 3);
            } else {
                bench.results().info(NAME, figure, value);
            }
        }
        limitFigures.put("spreadSkus", size.spreadSkus());
        limitFigures.put("byConcurrency", byConcurrency.stream().map(e -> Map.of("connections", e.get("connections"),
                "ordersPerSecond", e.get("limitOrdersPerSecond"))).toList());
        figures.put("skus", size.spreadSkus());
        figures.put("rounds", size.rounds());
        figures.put("roundSeconds", size.roundLength().toMillis() / 1000.0);
        figures.put("byConcurrency", byConcurrency);
        List<String> categories = size.concurrencies().stream().map(c -> c + " conns").toList();
        bench.results().chart(Svg.bars("Throughput by concurrency (spread SKUs, medians of interleaved rounds)",
                "orders/s", categories, List.of(new Svg.Series("database limit (mysqlslap)", limitMedians),
                        new Svg.Series("service (wrk)", serviceMedians))));
        bench.results().chart(Svg.bars("Placement latency, closed model (median round)", "ms", categories,
                List.of(new Svg.Series("p50", medianRuns.stream().map(Wrk.Run::p50).toList()),
                        new Svg.Series("p90", medianRuns.stream().map(Wrk.Run::p90).toList()),
                        new Svg.Series("p99", medianRuns.stream().map(Wrk.Run::p99).toList()))));
        clearance.cancelPending();
        fixedRate(skus, figures);
        clearance.cancelPending();
    }

    /** Each figure's median over the rounds. */
    private static Map<String, Double> medians(List<Map<String, Double>> rounds) {
        Map<String, Double> medians = new LinkedHashMap<>();
        for (String key : rounds.get(0).keySet()) {
            medians.put(key, Stats.median(rounds.stream().map(round -> round.get(key)).toList()));
        }
        return medians;
    }

    private void fixedRate(Catalog.Range skus, Map<String, Object> figures) {
        BenchSize size = bench.size();
        Progress.say("  open model: %d orders/s for %d s (Gatling)", size.fixedRate(), size.fixedRateLength().toSeconds());
        Map<String, String> props = Gatling.placeAtFixedRate(bench, bench.service(), size.fixedRate(),
                size.fixedRateLength(), size.warmUp(), skus.from(), skus.to(), 0, bench.tokens());
        Map<String, Gatling.Request> requests = bench.gatling().run("PlaceOrdersAtFixedRate", props,
                size.fixedRateLength().plus(size.warmUp()));
        Gatling.Request place = requests.get("place");
        if (place == null || place.total() == 0) {
            bench.results().problem("fixed-rate placement: Gatling reported no request");
            return;
        }
        if (place.ko() > 0) {
            bench.results().problem("fixed-rate placement: " + place.ko() + " of " + place.total() + " failed");
        }
        figures.put("fixedRate", Map.of("ordersPerSecond", size.fixedRate(), "seconds",
                size.fixedRateLength().toSeconds(), "place", place.toMap()));
        bench.results().verdict(NAME, "p99 at " + size.fixedRate() + " orders/s (open model)",
                String.format("%.0f ms (p50 %.0f, p99.9 %.0f, max %.0f)", place.p99(), place.p50(), place.p999(),
                        place.max()), "<= 100 ms", place.p99() <= 100);
        bench.results().chart(Svg.bars("Placement latency at " + size.fixedRate() + " orders/s, open model (Gatling)",
                "ms", List.of("p50", "p90", "p99", "p99.9", "max"), List.of(new Svg.Series("place",
                        List.of(place.p50(), place.p90(), place.p99(), place.p999(), place.max())))));
    }
}
