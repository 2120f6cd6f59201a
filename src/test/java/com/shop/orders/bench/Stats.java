package com.shop.orders.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Medians and percentiles of measured values (nearest rank). */
final class Stats {

    private Stats() {
    }

    /** The middle value; for an even count the mean of the two middle ones (two rounds: their mean). */
    static double median(List<Double> values) {
        if (values.isEmpty() || values.size() % 2 == 1) {
            return percentile(values, 50);
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
    }

    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    static double round(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return value;
        }
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
