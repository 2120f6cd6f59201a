package com.shop.orders.bench;

import java.util.LinkedHashMap;
import java.util.Map;

import com.shop.orders.harness.Prometheus;
import com.shop.orders.harness.ServiceProcess;

/**
 * The service's collections as its own meters count them ({@code gc_collections_total} and
 * {@code gc_pause_seconds_total}, health.CollectorMetrics): the same figures from the jar and from the executable.
 */
final class ServiceGc {

    /** Totals since the service started; the difference of two is a window's. */
    record Totals(long atNanos, double young, double full, double pauseSeconds) {

        Totals minus(Totals earlier) {
            return new Totals(atNanos - earlier.atNanos, young - earlier.young, full - earlier.full,
                    pauseSeconds - earlier.pauseSeconds);
        }

        /** Two windows as one (their times and counts added). */
        Totals plus(Totals other) {
            return new Totals(atNanos + other.atNanos, young + other.young, full + other.full,
                    pauseSeconds + other.pauseSeconds);
        }

        double seconds() {
            return atNanos / 1e9;
        }

        /** Share of the window's wall-clock time spent in collections, in percent. */
        double pausePercent() {
            return seconds() <= 0 ? 0 : 100 * pauseSeconds / seconds();
        }

        double fullPerMinute() {
            return seconds() <= 0 ? 0 : 60 * full / seconds();
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("seconds", Stats.round(seconds(), 1));
            m.put("youngCollections", (long) young);
            m.put("fullCollections", (long) full);
            m.put("pauseSeconds", Stats.round(pauseSeconds, 3));
            m.put("pausePercent", Stats.round(pausePercent(), 2));
            m.put("fullPerMinute", Stats.round(fullPerMinute(), 1));
            return m;
        }
    }

    /** No window: what {@link Totals#plus} starts from. */
    static final Totals NONE = new Totals(0, 0, 0, 0);

    private ServiceGc() {
    }

    /** One scrape: the three series of the same moment. */
    static Totals read(ServiceProcess service) {
        String text = service.metricsText();
        return new Totals(System.nanoTime(), Prometheus.sum(text, "gc_collections_total", "kind", "young"),
                Prometheus.sum(text, "gc_collections_total", "kind", "full"),
                Prometheus.sum(text, "gc_pause_seconds_total"));
    }

    /** The window's figures as text for a report line. */
    static String describe(Totals window) {
        return String.format("%.1f %% of the time in collections; %.1f full collections a minute (%d full, %d young "
                + "in %.0f s)", window.pausePercent(), window.fullPerMinute(), (long) window.full(),
                (long) window.young(), window.seconds());
    }
}
