package com.shop.orders.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The soak cut into windows of equal length: a minute, or a sixth of a soak shorter than six minutes, so that even the
 * quick one has several. Each answer counts in the window its request was due in (follow-ups due after the end in the
 * last); the service's GC totals and CPU time are read at every boundary. Answers arrive on the HTTP client's threads
 * while the report reads the windows: each window guards its own figures.
 */
final class SoakWindows {

    /**
     * One window's figures for the report (latencies in ms, RSS in MB; gc null and serviceCpuCores NaN when a boundary
     * was not read).
     */
    record Summary(int window, double fromSeconds, double toSeconds, long requests, long errors, double p99Ms,
                   long placements, double placementP50Ms, double placementP99Ms, double rssMb, ServiceGc.Totals gc,
                   double serviceCpuCores) {

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("window", window);
            m.put("fromSeconds", Stats.round(fromSeconds, 1));
            m.put("toSeconds", Stats.round(toSeconds, 1));
            m.put("requests", requests);
            m.put("errors", errors);
            m.put("p99Ms", Stats.round(p99Ms, 2));
            m.put("placements", placements);
            m.put("placementP50Ms", Stats.round(placementP50Ms, 2));
            m.put("placementP99Ms", Stats.round(placementP99Ms, 2));
            m.put("rssMb", Stats.round(rssMb, 1));
            if (!Double.isNaN(serviceCpuCores)) {
                m.put("serviceCpuCores", Stats.round(serviceCpuCores, 3));
            }
            if (gc != null) {
                m.put("gc", gc.toMap());
            }
            return m;
        }
    }

    private static final class Window {
        private final List<Double> all = new ArrayList<>();
        private final List<Double> placements = new ArrayList<>();
        private long errors;

        synchronized void answer(boolean placement, double ms, boolean ok) {
            all.add(ms);
            if (placement) {
                placements.add(ms);
            }
            if (!ok) {
                errors++;
            }
        }

        synchronized void failure() {
            errors++;
        }

        synchronized long errors() {
            return errors;
        }

        synchronized List<Double> all() {
            return List.copyOf(all);
        }

        synchronized List<Double> placements() {
            return List.copyOf(placements);
        }
    }

    /** The first request is due this long after the windows are made, so that the first GC reading is not late. */
    private static final Duration LEAD = Duration.ofMillis(500);
    private static final Duration LONGEST = Duration.ofMinutes(1);
    /** A soak this long or longer has the first ten minutes as its warm part; a shorter one, its first third. */
    private static final Duration TEN_MINUTES_WARM_FROM = Duration.ofMinutes(30);
    private static final Duration WARM = Duration.ofMinutes(10);

    private final long originNanos;
    private final long originMs;
    private final long windowNanos;
    private final Window[] windows;
    /** GC totals at the boundaries 0 .. count (set by the boundaries' timer, read by the report). */
    private final AtomicReferenceArray<ServiceGc.Totals> gc;
    /** The service's CPU milliseconds at the boundaries, 0 where not read (or /proc could not be read). */
    private final AtomicLongArray cpuMs;

    SoakWindows(Duration length) {
        Duration window = length.dividedBy(6).compareTo(LONGEST) < 0 ? length.dividedBy(6) : LONGEST;
        this.windowNanos = window.toNanos();
        int count = (int) Math.ceil((double) length.toNanos() / windowNanos);
        this.windows = new Window[count];
        for (int i = 0; i < count; i++) {
            windows[i] = new Window();
        }
        this.gc = new AtomicReferenceArray<>(count + 1);
        this.cpuMs = new AtomicLongArray(count + 1);
        long nowNanos = System.nanoTime();
        long nowMs = System.currentTimeMillis();
        this.originNanos = nowNanos + LEAD.toNanos();
        this.originMs = nowMs + LEAD.toMillis();
    }

    int count() {
        return windows.length;
    }

    Duration window() {
        return Duration.ofNanos(windowNanos);
    }

    /** When the soak starts (System.nanoTime): its first request is due then. */
    long originNanos() {
        return originNanos;
    }

    /** Boundary k (0 .. count) on System.nanoTime's clock. */
    long boundaryNanos(int k) {
        return originNanos + k * windowNanos;
    }

    /** Whether the warm part is the first ten minutes (a soak of half an hour or more) or the first third. */
    boolean warmIsTenMinutes() {
        return windowNanos * windows.length >= TEN_MINUTES_WARM_FROM.toNanos();
    }

    /** The windows of the warm part. */
    int warmWindows() {
        return warmIsTenMinutes() ? (int) (WARM.toNanos() / windowNanos) : Math.max(1, windows.length / 3);
    }

    /** An answer (or a request that got none) to a request due at {@code dueNanos}, {@code ms} after it was due. */
    void answer(long dueNanos, boolean placement, double ms, boolean ok) {
        windowOf(dueNanos).answer(placement, ms, ok);
    }

    /** A failure of the benchmark's own along an order's path (no trade at the wallet to pay), at {@code atNanos}. */
    void failure(long atNanos) {
        windowOf(atNanos).failure();
    }

    void gcAt(int boundary, ServiceGc.Totals totals) {
        gc.set(boundary, totals);
    }

    /** The service's CPU time so far (ms, 0 when /proc could not be read) at boundary k. */
    void cpuAt(int boundary, double ms) {
        cpuMs.set(boundary, Math.round(ms));
    }

    /** Cores the service used on average in window k, NaN when a boundary of it was not read. */
    double serviceCpuCores(int k) {
        return coresBetween(k, k + 1);
    }

    /** Cores the service used on average over the whole soak, NaN when its first or last boundary was not read. */
    double serviceCpuCoresOverall() {
        return coresBetween(0, windows.length);
    }

    /** Collections over the whole soak, null when its first or last boundary was not read. */
    ServiceGc.Totals gcOverall() {
        return between(0, windows.length);
    }

    /** Boundaries whose GC totals could not be read. */
    int gcUnread() {
        int unread = 0;
        for (int k = 0; k < gc.length(); k++) {
            unread += gc.get(k) == null ? 1 : 0;
        }
        return unread;
    }

    /** Every placement's answer time, all windows. */
    List<Double> placements() {
        List<Double> all = new ArrayList<>();
        for (Window w : windows) {
            all.addAll(w.placements());
        }
        return all;
    }

    /** Window k's figures, its RSS the highest {@code rss} sampled in it. */
    Summary summary(int k, RssSampler rss) {
        Window w = windows[k];
        List<Double> all = w.all();
        List<Double> placements = w.placements();
        long toMs = originMs + (k + 1) * windowNanos / 1_000_000;
        return new Summary(k + 1, k * windowNanos / 1e9, (k + 1) * windowNanos / 1e9, all.size(), w.errors(),
                Stats.percentile(all, 99), placements.size(), Stats.percentile(placements, 50),
                Stats.percentile(placements, 99), rss.peakMbBetween(originMs + k * windowNanos / 1_000_000, toMs),
                between(k, k + 1), serviceCpuCores(k));
    }

    List<Summary> summaries(RssSampler rss) {
        List<Summary> summaries = new ArrayList<>();
        for (int k = 0; k < windows.length; k++) {
            summaries.add(summary(k, rss));
        }
        return summaries;
    }

    private ServiceGc.Totals between(int from, int to) {
        ServiceGc.Totals start = gc.get(from);
        ServiceGc.Totals end = gc.get(to);
        return start == null || end == null ? null : end.minus(start);
    }

    private double coresBetween(int from, int to) {
        long start = cpuMs.get(from);
        long end = cpuMs.get(to);
        return start <= 0 || end <= 0 ? Double.NaN : (end - start) / ((to - from) * windowNanos / 1e6);
    }

    private Window windowOf(long nanos) {
        long k = (nanos - originNanos) / windowNanos;
        return windows[(int) Math.max(0, Math.min(windows.length - 1, k))];
    }
}
