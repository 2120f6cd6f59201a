package com.shop.orders.bench;

import java.util.List;

/**
 * Whether a figure per window (RSS, a p99) holds after the soak's warm part: the highest window after it no higher
 * than the warm part's highest plus a tolerance. Lower than the warm part's lowest is no regression, and passes.
 * Windows without a value (NaN) are left out.
 */
record AfterWarmUp(double warmMin, double warmMax, double afterMax, double tolerance) {

    static AfterWarmUp of(List<Double> perWindow, int warmWindows, double tolerance) {
        List<Double> warm = finite(perWindow.subList(0, Math.min(warmWindows, perWindow.size())));
        List<Double> after = finite(perWindow.subList(Math.min(warmWindows, perWindow.size()), perWindow.size()));
        return new AfterWarmUp(Stats.min(warm), Stats.max(warm), Stats.max(after), tolerance);
    }

    /** The highest the windows after the warm part may reach. */
    double ceiling() {
        return warmMax * (1 + tolerance);
    }

    /** False as well when either part has no value to compare. */
    boolean holds() {
        return afterMax <= ceiling();
    }

    String describe(String unit) {
        return String.format("max %.1f %s after; warm part %.1f-%.1f %s", afterMax, unit, warmMin, warmMax, unit);
    }

    String target(String unit) {
        return String.format("<= %.1f %s (warm max + %.0f %%)", ceiling(), unit, 100 * tolerance);
    }

    private static List<Double> finite(List<Double> values) {
        return values.stream().filter(v -> !v.isNaN() && !v.isInfinite()).toList();
    }
}
