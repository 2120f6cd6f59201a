package com.shop.orders.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.apache.rocketmq.client.exception.MQClientException;

import com.shop.orders.harness.Invariants;
import com.shop.orders.harness.ServiceStack;
import com.shop.orders.testsupport.PaidEvents;
import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.Timings;

/**
 * Phase 12: the soak. An hour (the quick size: a minute) of mixed traffic at a fixed rate on the one service
 * ({@link SoakTraffic}): placements, QR codes and both wallets' notifies, payments whose notify is lost, orders left to
 * expire, sold-out attempts and admin refunds. Per window (a minute, {@link SoakWindows}): requests, errors, p99 of
 * all answers and of placements, the service's RSS (its peak) and its collections. It holds when no answer was an
 * error and neither RSS nor the placements' p99 climbs, after the warm part (the first ten minutes), above what the
 * warm part showed, within a tolerance. Then, once every order of the soak is decided and its refunds settled,
 * design.md's invariants on the soak's orders and SKUs (harness {@link Invariants}), each violation a problem of the
 * run. Not in a run unless named (bench/run.sh soak): its hour is more than the rest of the benchmark together.
 */
final class SoakPhase {

    static final String NAME = "12 soak";
    /** The soak's name on the command line. */
    static final String OPTION = "soak";
    /** SKUs the orders are placed on, in turn, each with stock for far more than the soak places. */
    private static final int SKUS = 100;
    private static final int STOCK = 10_000_000;
    private static final double RSS_TOLERANCE = 0.05;
    private static final double P99_TOLERANCE = 0.20;
    /** Refunds still processing (WeChat's) and "order paid" events on their way get this long to settle. */
    private static final Duration SETTLE = Duration.ofSeconds(60);
    /** Invariant violations reported one by one; the rest by their count. */
    private static final int VIOLATIONS_SHOWN = 20;

    private final Bench bench;

    SoakPhase(Bench bench) {
        this.bench = bench;
    }

    void run() {
        BenchSize size = bench.size();
        Catalog.Range skus = bench.catalog().create(SKUS, STOCK);
        long soldOutSku = bench.catalog().create(1, 0).from();
        // Listening from the start, so that the soak's "order paid" events are in by its end. The run's tokens were
        // made when it started and live an hour: the soak's are renewed as it goes.
        try (PaidEvents events = listen(); RenewedTokens tokens = new RenewedTokens(bench.stack().tokens(), size.members())) {
            // Made last, once the listener is up: the first request is due half a second from here.
            SoakWindows windows = new SoakWindows(size.soakLength());
            Progress.say("  %d min: %d orders/s and %d sold-out attempts/s, %d windows of %d s",
                    size.soakLength().toMinutes(), size.soakRate(), size.soakRate() / 2, windows.count(),
                    windows.window().toSeconds());
            try (SoakTraffic traffic = new SoakTraffic(bench, skus, soldOutSku, tokens, windows)) {
                soak(traffic, windows, skus, soldOutSku, events);
            }
        }
    }

    private void soak(SoakTraffic traffic, SoakWindows windows, Catalog.Range skus, long soldOutSku,
            PaidEvents events) {
        ScheduledExecutorService boundaries = boundaries(windows);
        try {
            traffic.run();
            awaitBoundaries(boundaries, windows);
        } finally {
            boundaries.shutdownNow();
        }
        // Each request of an order's path may take its whole time-out: placement, QR code, notify, refund.
        int unanswered = traffic.awaitAnswers(SoakTraffic.TIMEOUT.multipliedBy(4).plusSeconds(30));
        if (unanswered > 0) {
            bench.results().problem("soak: " + unanswered + " requests or their follow-ups still unhandled");
        }
        List<OrderFacts.OrderRow> orders = decided(skus);
        Map<String, Long> refunds = settledRefunds(skus);
        List<String> violations = invariants(orders, skus, soldOutSku, events);
        report(windows, traffic, orders, refunds, violations);
    }

    private PaidEvents listen() {
        try {
            return PaidEvents.listen(bench.stack().rocketMq().nameServerAddress(), ServiceStack.PAID_TOPIC);
        } catch (MQClientException e) {
            throw new IllegalStateException("no listener for the 'order paid' events", e);
        }
    }

    /** Reads the service's GC totals at each boundary of the windows, and says how each window went. */
    private ScheduledExecutorService boundaries(SoakWindows windows) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "soak-windows");
            t.setDaemon(true);
            return t;
        });
        for (int k = 0; k <= windows.count(); k++) {
            int boundary = k;
            timer.schedule(() -> boundary(windows, boundary), windows.boundaryNanos(k) - System.nanoTime(),
                    TimeUnit.NANOSECONDS);
        }
        // No more tasks; those scheduled still run (the executor's default after shutdown).
        timer.shutdown();
        return timer;
    }

    private void boundary(SoakWindows windows, int k) {
        windows.cpuAt(k, CpuMeter.processMs(bench.service().pid()));
        try {
            windows.gcAt(k, ServiceGc.read(bench.service()));
        } catch (RuntimeException e) {
            // Left unread: the windows on either side have no GC figures, and the report says how many.
            Progress.say("  soak: the service's GC totals not read at boundary %d: %s", k, e);
        }
        if (k > 0) {
            // Answers due at the window's end may still be on their way: the report counts them all.
            SoakWindows.Summary w = windows.summary(k - 1, bench.rss());
            Progress.say("  soak window %d/%d: %d requests, %d errors, p99 %.1f ms, placement p99 %.1f ms, "
                    + "RSS %.0f MB, service CPU %.2f cores%s", k, windows.count(), w.requests(), w.errors(), w.p99Ms(),
                    w.placementP99Ms(), w.rssMb(), w.serviceCpuCores(),
                    w.gc() == null ? "" : String.format(", GC %.2f %% of the time", w.gc().pausePercent()));
        }
    }

    /** Until the last boundary is read (it is due as the last request goes), at most a window more and a minute. */
    private static void awaitBoundaries(ScheduledExecutorService boundaries, SoakWindows windows) {
        try {
            boundaries.awaitTermination(windows.window().toSeconds() + 60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until no order of the soak is PENDING_PAYMENT: the last ones expire a pay window after the end, closed
     * at a check-back within the watch's bound; twice that bound and 10 s at most, as the watch waits. The orders.
     */
    private List<OrderFacts.OrderRow> decided(Catalog.Range skus) {
        Timings timings = bench.stack().timings();
        Instant giveUp = Instant.now().plus(timings.payTimeout()).plus(WatchPhase.bound(timings).multipliedBy(2))
                .plusSeconds(10);
        Instant nextReport = Instant.now();
        long pending;
        while ((pending = bench.facts().pending(skus)) > 0 && Instant.now().isBefore(giveUp)) {
            if (!Instant.now().isBefore(nextReport)) {
                Progress.say("  soak: waiting for %d pending orders to be decided", pending);
                nextReport = Instant.now().plusSeconds(15);
            }
            Pause.of(Duration.ofSeconds(1));
        }
        if (pending > 0) {
            Progress.say("  soak: %d orders still pending (the invariants will say)", pending);
        }
        return bench.facts().orders(skus);
    }

    /** Waits until every refund of the soak's orders is SUCCEEDED or FAILED ({@link #SETTLE} at most): by status. */
    private Map<String, Long> settledRefunds(Catalog.Range skus) {
        Instant giveUp = Instant.now().plus(SETTLE);
        Map<String, Long> refunds = bench.facts().refunds(skus);
        while (unsettled(refunds) > 0 && Instant.now().isBefore(giveUp)) {
            Pause.of(Duration.ofSeconds(1));
            refunds = bench.facts().refunds(skus);
        }
        return refunds;
    }

    private static long unsettled(Map<String, Long> refunds) {
        return refunds.entrySet().stream().filter(e -> !e.getKey().equals("SUCCEEDED") && !e.getKey().equals("FAILED"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /**
     * design.md's invariants on the soak's orders, its SKUs and the sold-out one; asked again for {@link #SETTLE}
     * while any are found, as events still on their way read as violations for a moment. An expired order must be
     * closed within twice the watch's bound of its deadline (the time the drain gives it).
     */
    private List<String> invariants(List<OrderFacts.OrderRow> orders, Catalog.Range skus, long soldOutSku,
            PaidEvents events) {
        List<Long> ids = orders.stream().map(OrderFacts.OrderRow::id).toList();
        List<Long> skuIds = LongStream.concat(LongStream.rangeClosed(skus.from(), skus.to()), LongStream.of(soldOutSku))
                .boxed().toList();
        Duration lateness = WatchPhase.bound(bench.stack().timings()).multipliedBy(2);
        Progress.say("  soak: invariants of %d orders and %d SKUs", ids.size(), skuIds.size());
        Instant giveUp = Instant.now().plus(SETTLE);
        List<String> violations = Invariants.violations(bench.stack(), ids, skuIds, events, lateness);
        while (!violations.isEmpty() && Instant.now().isBefore(giveUp)) {
            Pause.of(Duration.ofSeconds(2));
            violations = Invariants.violations(bench.stack(), ids, skuIds, events, lateness);
        }
        return violations;
    }

    private void report(SoakWindows windows, SoakTraffic traffic, List<OrderFacts.OrderRow> orders,
            Map<String, Long> refunds, List<String> violations) {
        Results results = bench.results();
        List<SoakWindows.Summary> summaries = windows.summaries(bench.rss());
        long requests = summaries.stream().mapToLong(SoakWindows.Summary::requests).sum();
        long errors = traffic.errorCount();
        List<Double> placements = windows.placements();
        ServiceGc.Totals gc = windows.gcOverall();
        SoakTraffic.Counts counts = traffic.counts();
        Map<String, Long> statuses = orders.stream()
                .collect(Collectors.groupingBy(OrderFacts.OrderRow::status, TreeMap::new, Collectors.counting()));

        Map<String, Object> figures = results.phase(NAME);
        figures.put("minutes", bench.size().soakLength().toMinutes());
        figures.put("ordersPerSecond", bench.size().soakRate());
        figures.put("windowSeconds", windows.window().toSeconds());
        figures.put("warmWindows", windows.warmWindows());
        figures.put("requests", requests);
        figures.put("errors", errors);
        figures.put("errorsByKind", traffic.errors());
        figures.put("firstErrorOfEachKind", traffic.firstOfEach());
        figures.put("placementP50Ms", Stats.round(Stats.percentile(placements, 50), 2));
        figures.put("placementP99Ms", Stats.round(Stats.percentile(placements, 99), 2));
        figures.put("answers", counts);
        figures.put("ordersByStatus", statuses);
        figures.put("refundsByStatus", refunds);
        if (gc != null) {
            figures.put("gc", gc.toMap());
        }
        figures.put("invariantViolations", violations.size());
        figures.put("windows", summaries.stream().map(SoakWindows.Summary::toMap).toList());

        if (errors > 0) {
            results.problem("soak: " + errors + " of " + requests + " requests not answered as expected: "
                    + traffic.errors() + "; first of each: " + traffic.firstOfEach());
        }
        if (windows.gcUnread() > 0) {
            results.problem("soak: the service's GC totals not read at " + windows.gcUnread() + " of "
                    + (windows.count() + 1) + " window boundaries");
        }
        violations.stream().limit(VIOLATIONS_SHOWN).forEach(v -> results.problem("soak invariant: " + v));
        if (violations.size() > VIOLATIONS_SHOWN) {
            results.problem("soak: " + (violations.size() - VIOLATIONS_SHOWN) + " more invariant violations");
        }

        String warm = windows.warmIsTenMinutes() ? "the first ten minutes" : "the first third";
        AfterWarmUp rss = AfterWarmUp.of(summaries.stream().map(SoakWindows.Summary::rssMb).toList(),
                windows.warmWindows(), RSS_TOLERANCE);
        AfterWarmUp p99 = AfterWarmUp.of(summaries.stream().map(SoakWindows.Summary::placementP99Ms).toList(),
                windows.warmWindows(), P99_TOLERANCE);
        results.verdict(NAME, "errors", errors + " of " + requests + " requests", "0", errors == 0);
        results.verdict(NAME, "RSS after " + warm, rss.describe("MB"), rss.target("MB"), rss.holds());
        results.verdict(NAME, "placement p99 after " + warm, p99.describe("ms"), p99.target("ms"), p99.holds());
        // ArtifactComparison reads the leading numbers of these two.
        results.info(NAME, "placement p99 over the soak", String.format("%.1f ms (p50 %.1f ms, %d placements)",
                Stats.percentile(placements, 99), Stats.percentile(placements, 50), placements.size()));
        results.info(NAME, "GC over the soak", gc == null ? "not read" : ServiceGc.describe(gc));
        double cores = windows.serviceCpuCoresOverall();
        // Every request an order's life brings (QR code, notify, check-backs, queries, close, refund), per order placed.
        results.info(NAME, "service CPU over the soak", Double.isNaN(cores) ? "not read"
                : String.format("%.2f cores, %.1f ms per order placed (all of its traffic)", cores,
                        cores * 1000 / bench.size().soakRate()));
        results.info(NAME, "orders", String.format("%d placed: %d paid by notify, %d paid with the notify lost, "
                        + "%d closed (expired), %d partly refunded; %d sold-out answers; by status %s", counts.placed(),
                counts.notified(), counts.paidNotifyLost(), statuses.getOrDefault("CLOSED", 0L), counts.refunded(),
                counts.soldOutAnswers(), statuses));
        results.verdict(NAME, "invariants", violations.size() + " violations in " + orders.size()
                + " orders", "0", violations.isEmpty());

        List<Double> minutes = summaries.stream().map(w -> Stats.round(w.toSeconds() / 60, 2)).toList();
        results.chart(Svg.lines("Soak: service RSS per window (peak)", "MB", "minutes", minutes,
                List.of(new Svg.Series("RSS", summaries.stream().map(SoakWindows.Summary::rssMb).toList()))));
        results.chart(Svg.lines("Soak: p99 per window", "ms", "minutes", minutes, List.of(
                new Svg.Series("placements", summaries.stream().map(SoakWindows.Summary::placementP99Ms).toList()),
                new Svg.Series("all requests", summaries.stream().map(SoakWindows.Summary::p99Ms).toList()))));
    }
}
