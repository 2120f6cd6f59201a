package com.shop.orders.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.shop.orders.testsupport.Timings;
import com.shop.orders.sandbox.alipay.TradeSnapshot;
import com.shop.orders.testsupport.Pause;

/**
 * Phase 4: watch capacity. For each level, that many orders are placed (open model) so that they are pending at
 * once, a share of them paid through the sandbox's buyer while the sandbox drops every notify; the rest expire.
 * Measured from SQL and the service's metrics: close lateness (closed_at - pay_deadline), how long a payment whose
 * notify was lost took to be found, check-backs per half message per interval, sweep closes; and at the end
 * whether the broker discarded any half message.
 */
final class WatchPhase {

    static final String NAME = "4 watch capacity";
    private static final String CHECKS = "expiry_checks_seconds_count";
    private static final String SWEEP_CLOSED = "expiry_sweep_closed_total";
    /** What the check-backs' Alipay probes came to: how a lost notify is (or is not) found before the deadline. */
    private static final String PROBES = "expiry_probes_total";
    private static final List<String> PROBE_RESULTS = List.of("paid", "unpaid", "not_due", "busy", "error");

    private final Bench bench;

    WatchPhase(Bench bench) {
        this.bench = bench;
    }

    /**
     * The watch's bound, for the lateness of a close and the finding of a lost notify's payment: the broker's first
     * check-back, one interval more and 2 s for the service. The soak and the wallets phase hold to it as well.
     */
    static Duration bound(Timings timings) {
        return timings.brokerCheckInterval().plus(timings.brokerFirstCheck()).plusSeconds(2);
    }

    void run() {
        Timings timings = bench.stack().timings();
        Duration bound = bound(timings);
        Map<String, Object> figures = bench.results().phase(NAME);
        figures.put("checkIntervalSeconds", timings.brokerCheckInterval().toSeconds());
        figures.put("firstCheckSeconds", timings.brokerFirstCheck().toSeconds());
        figures.put("payTimeoutSeconds", timings.payTimeout().toSeconds());
        figures.put("boundSeconds", bound.toSeconds());
        List<Map<String, Object>> levels = new ArrayList<>();
        bench.stack().sandbox().faults().dropNotifies(true);
        try {
            for (int level : bench.size().watchLevels()) {
                levels.add(level(level, timings));
            }
        } finally {
            bench.stack().sandbox().faults().dropNotifies(false);
        }
        long discarded = bench.broker().discardedHalfMessages();
        figures.put("levels", levels);
        figures.put("discardedHalfMessages", discarded);
        judge(levels, bound, discarded);
        charts(levels);
    }

    private Map<String, Object> level(int target, Timings timings) {
        BenchSize size = bench.size();
        Catalog.Range skus = bench.catalog().create(100, 10_000_000);
        double checks0 = bench.service().metric(CHECKS);
        double sweep0 = bench.service().metric(SWEEP_CLOSED);
        Map<String, Double> probes0 = probes();
        // At least 200 orders/s, fast enough that all of them are pending at once (placed within 80% of the window).
        long placeSeconds = Math.max(1, Math.min((long) (0.8 * timings.payTimeout().toSeconds()),
                (long) Math.ceil(target / 200.0)));
        double rate = (double) target / placeSeconds;
        Progress.say("  %d pending: placing at %.0f orders/s for %d s, %.0f%% paid with the notify lost",
                target, rate, placeSeconds, size.watchPayShare() * 100);
        // The watch measures lateness, not answer times: no warm-up.
        Map<String, String> props = Gatling.placeAtFixedRate(bench, bench.service(), rate,
                Duration.ofSeconds(placeSeconds), Duration.ZERO, skus.from(), skus.to(), size.watchPayShare(),
                bench.tokens());
        CompletableFuture<Map<String, Gatling.Request>> load = CompletableFuture.supplyAsync(() ->
                bench.gatling().run("PlaceOrdersAtFixedRate", props, Duration.ofSeconds(placeSeconds)));
        long heldMax = 0;
        List<double[]> pendingOverTime = new ArrayList<>();
        long start = System.nanoTime();
        while (!load.isDone()) {
            heldMax = Math.max(heldMax, sample(skus, start, pendingOverTime));
            Pause.of(Duration.ofSeconds(1));
        }
        Map<String, Gatling.Request> requests = load.join();
        Gatling.Request all = requests.get("all");
        if (all != null && all.ko() > 0) {
            bench.results().problem("watch " + target + ": " + all.ko() + " of " + all.total()
                    + " placement/payment requests failed");
        }
        // Every order is decided within its pay window plus the bound; wait for that, with room for a slow broker.
        Duration bound = bound(timings);
        Instant giveUp = Instant.now().plus(timings.payTimeout()).plus(bound.multipliedBy(2)).plusSeconds(10);
        long pending;
        do {
            pending = sample(skus, start, pendingOverTime);
            heldMax = Math.max(heldMax, pending);
            if (pending > 0) {
                Pause.of(Duration.ofSeconds(1));
            }
        } while (pending > 0 && Instant.now().isBefore(giveUp));
        Map<String, Object> m = measure(target, skus, timings, heldMax, pending, bench.service().metric(CHECKS) - checks0,
                bench.service().metric(SWEEP_CLOSED) - sweep0, pendingOverTime);
        Map<String, Double> probes = probes();
        Map<String, Long> probed = new LinkedHashMap<>();
        PROBE_RESULTS.forEach(r -> probed.put(r, Math.round(probes.get(r) - probes0.get(r))));
        m.put("probes", probed);
        Progress.say("  %d pending: Alipay probes %s", target, probed);
        return m;
    }

    private Map<String, Double> probes() {
        Map<String, Double> counts = new LinkedHashMap<>();
        PROBE_RESULTS.forEach(r -> counts.put(r, bench.service().metric(PROBES, "result", r)));
        return counts;
    }

    private long sample(Catalog.Range skus, long start, List<double[]> series) {
        long pending = bench.facts().pending(skus);
        series.add(new double[] {(System.nanoTime() - start) / 1e9, pending});
        return pending;
    }

    private Map<String, Object> measure(int target, Catalog.Range skus, Timings timings, long heldMax,
            long leftPending, double checks, double sweepClosed, List<double[]> pendingOverTime) {
        List<OrderFacts.OrderRow> orders = bench.facts().orders(skus);
        List<Double> lateness = new ArrayList<>();
        List<Double> found = new ArrayList<>();
        double expectedChecks = 0;
        long paidUnfound = 0;
        Instant now = Instant.now();
        for (OrderFacts.OrderRow order : orders) {
            Instant end = order.closedAt() != null ? order.closedAt() : order.paidAt() != null ? order.paidAt() : now;
            double lifetime = Duration.between(order.createdAt(), end).toMillis() / 1000.0;
            expectedChecks += 1 + Math.max(0, Math.floor((lifetime - timings.brokerFirstCheck().toSeconds())
                    / timings.brokerCheckInterval().toSeconds()));
            if ("CLOSED".equals(order.status()) && order.closedAt() != null) {
                lateness.add(Duration.between(order.deadline(), order.closedAt()).toMillis() / 1000.0);
            } else if ("PAID".equals(order.status())) {
                Instant paidAtAlipay = bench.stack().sandbox().trades().trade(order.orderNo())
                        .map(TradeSnapshot::paidAt).orElse(null);
                if (paidAtAlipay != null) {
                    found.add(Duration.between(paidAtAlipay, order.paidAt()).toMillis() / 1000.0);
                } else {
                    paidUnfound++;
                }
            }
        }
        if (paidUnfound > 0) {
            bench.results().problem("watch " + target + ": " + paidUnfound + " orders PAID without a sandbox payment");
        }
        double amplification = expectedChecks > 0 ? checks / expectedChecks : Double.NaN;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target", target);
        m.put("pendingHeldMax", heldMax);
        m.put("orders", orders.size());
        m.put("expired", lateness.size());
        m.put("paidNotifyLost", found.size());
        m.put("leftPending", leftPending);
        m.put("latenessSeconds", summary(lateness));
        m.put("lostNotifyFoundSeconds", summary(found));
        m.put("checks", (long) checks);
        m.put("checksExpectedAtOnePerInterval", (long) expectedChecks);
        m.put("checksPerMessagePerInterval", Stats.round(amplification, 3));
        m.put("sweepClosed", (long) sweepClosed);
        m.put("latenessHistogram", histogram(lateness));
        m.put("pendingOverTime", pendingOverTime.stream().map(p -> List.of(Stats.round(p[0], 1), p[1])).toList());
        Progress.say("  %d pending (held max %d): lateness p50 %.1f s p99 %.1f s max %.1f s, lost notify found p99 %.1f s, "
                        + "%.2f checks/message/interval, %d sweep closes", target, heldMax, Stats.percentile(lateness, 50),
                Stats.percentile(lateness, 99), Stats.max(lateness), Stats.percentile(found, 99), amplification,
                (long) sweepClosed);
        return m;
    }

    /** count, p50, p90, p99 and max of {@code values}. */
    static Map<String, Object> summary(List<Double> values) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("count", values.size());
        m.put("p50", Stats.round(Stats.percentile(values, 50), 2));
        m.put("p90", Stats.round(Stats.percentile(values, 90), 2));
        m.put("p99", Stats.round(Stats.percentile(values, 99), 2));
        m.put("max", Stats.round(Stats.max(values), 2));
        return m;
    }

    /** Counts per whole second of lateness: bin i holds [i, i+1) s; negatives (early) in bin -1. */
    private static Map<String, Long> histogram(List<Double> values) {
        Map<String, Long> bins = new java.util.TreeMap<>((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b)));
        for (double v : values) {
            bins.merge(Integer.toString(v < 0 ? -1 : (int) Math.floor(v)), 1L, Long::sum);
        }
        return bins;
    }

    private void judge(List<Map<String, Object>> levels, Duration bound, long discarded) {
        // Targets hold at 10,000 pending; a smaller run judges its largest level.
        Map<String, Object> reference = levels.stream().filter(l -> (int) l.get("target") == 10_000).findFirst()
                .orElse(levels.get(levels.size() - 1));
        String at = " at " + reference.get("target") + " pending";
        double lateP99 = p99(reference, "latenessSeconds");
        double foundP99 = p99(reference, "lostNotifyFoundSeconds");
        double amp = (double) reference.get("checksPerMessagePerInterval");
        long sweep = levels.stream().mapToLong(l -> (long) l.get("sweepClosed")).sum();
        String b = "<= " + bound.toSeconds() + " s";
        long left = levels.stream().mapToLong(l -> (long) l.get("leftPending")).sum();
        bench.results().verdict(NAME, "orders still pending at deadline + 2 x bound (all levels)", Long.toString(left),
                "0", left == 0);
        bench.results().verdict(NAME, "close lateness p99" + at, String.format("%.1f s", lateP99), b,
                lateP99 <= bound.toSeconds());
        bench.results().verdict(NAME, "lost notify found p99" + at, String.format("%.1f s", foundP99), b,
                foundP99 <= bound.toSeconds());
        bench.results().verdict(NAME, "checks per message per interval" + at, String.format("%.2f", amp), "<= 1.2",
                amp <= 1.2);
        bench.results().verdict(NAME, "orders closed by the sweep (all levels)", Long.toString(sweep), "0", sweep == 0);
        bench.results().verdict(NAME, "discarded half messages (" + BrokerAdmin.DISCARDED_TOPIC + ")",
                Long.toString(discarded), "0", discarded == 0);
        String knee = "none up to " + levels.get(levels.size() - 1).get("target") + " pending";
        for (Map<String, Object> level : levels) {
            if (p99(level, "latenessSeconds") > bound.toSeconds() || p99(level, "lostNotifyFoundSeconds") > bound.toSeconds()
                    || (double) level.get("checksPerMessagePerInterval") > 1.2) {
                knee = "at or below " + level.get("target") + " pending";
                break;
            }
        }
        bench.results().phase(NAME).put("knee", knee);
        for (Map<String, Object> level : levels) {
            bench.results().info(NAME, "curve: " + level.get("target") + " pending", String.format(
                    "lateness p99 %.1f s, found p99 %.1f s, %.2f checks/msg/interval", p99(level, "latenessSeconds"),
                    p99(level, "lostNotifyFoundSeconds"), (double) level.get("checksPerMessagePerInterval")));
        }
        bench.results().info(NAME, "knee (first level over a bound)", knee);
    }

    @SuppressWarnings("unchecked")
    private static double p99(Map<String, Object> level, String key) {
        Object v = ((Map<String, Object>) level.get(key)).get("p99");
        return v instanceof Double d ? d : Double.NaN;
    }

    @SuppressWarnings("unchecked")
    private void charts(List<Map<String, Object>> levels) {
        List<Double> xs = levels.stream().map(l -> ((Number) l.get("target")).doubleValue()).toList();
        bench.results().chart(Svg.lines("Pending orders vs lateness", "seconds", "pending orders", xs, List.of(
                new Svg.Series("close lateness p50", levels.stream().map(l -> stat(l, "latenessSeconds", "p50")).toList()),
                new Svg.Series("close lateness p99", levels.stream().map(l -> stat(l, "latenessSeconds", "p99")).toList()),
                new Svg.Series("close lateness max", levels.stream().map(l -> stat(l, "latenessSeconds", "max")).toList()),
                new Svg.Series("lost notify found p99", levels.stream().map(l -> stat(l, "lostNotifyFoundSeconds", "p99")).toList()))));
        bench.results().chart(Svg.lines("Check-backs per half message per interval", "checks", "pending orders", xs,
                List.of(new Svg.Series("amplification", levels.stream()
                        .map(l -> (Double) l.get("checksPerMessagePerInterval")).toList()))));
        java.util.TreeSet<Integer> allBins = new java.util.TreeSet<>();
        levels.forEach(l -> ((Map<String, Long>) l.get("latenessHistogram")).keySet().forEach(k -> allBins.add(Integer.parseInt(k))));
        List<String> categories = allBins.stream().map(b -> b < 0 ? "early" : b + "-" + (b + 1) + " s").toList();
        List<Svg.Series> series = new ArrayList<>();
        for (Map<String, Object> level : levels) {
            Map<String, Long> h = (Map<String, Long>) level.get("latenessHistogram");
            series.add(new Svg.Series(level.get("target") + " pending", allBins.stream()
                    .map(b -> (double) h.getOrDefault(Integer.toString(b), 0L)).toList()));
        }
        bench.results().chart(Svg.bars("Close lateness histogram (closed_at - pay_deadline)", "orders", categories, series));
    }

    @SuppressWarnings("unchecked")
    private static double stat(Map<String, Object> level, String key, String which) {
        Object v = ((Map<String, Object>) level.get(key)).get(which);
        return v instanceof Double d ? d : Double.NaN;
    }
}
