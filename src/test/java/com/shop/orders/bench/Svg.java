package com.shop.orders.bench;

import java.util.List;
import java.util.Locale;

/**
 * Small SVG charts for the self-contained report: grouped bars and lines, no scripts, no CDN. Each is also valid as a
 * file of its own (namespace, white background, its own font), so a code host shows it as an image.
 */
final class Svg {

    /** A named series of values, one per category (or per x). */
    record Series(String name, List<Double> values) {
    }

    /** A chart: its title, and the SVG element that draws it. */
    record Chart(String title, String svg) {

        /** The title as a file name: lower case, words joined by hyphens. */
        String slug() {
            String slug = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
            return slug.length() <= 80 ? slug : slug.substring(0, 80).replaceAll("-$", "");
        }

        /** The chart as a standalone SVG document. */
        String document() {
            return "<?xml version='1.0' encoding='UTF-8'?>\n" + svg + "\n";
        }
    }

    private static final String[] COLORS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
            "#b07aa1"};
    private static final int W = 720;
    private static final int H = 300;
    private static final int LEFT = 60;
    private static final int BOTTOM = 50;
    private static final int TOP = 30;

    private Svg() {
    }

    static Chart bars(String title, String unit, List<String> categories, List<Series> series) {
        double max = niceMax(series.stream().flatMap(s -> s.values().stream()).filter(Svg::finite)
                .mapToDouble(Double::doubleValue).max().orElse(1));
        StringBuilder svg = frame(title, unit, max);
        int plotW = W - LEFT - 20;
        double groupW = (double) plotW / Math.max(1, categories.size());
        double barW = groupW * 0.8 / Math.max(1, series.size());
        for (int c = 0; c < categories.size(); c++) {
            double gx = LEFT + c * groupW;
            for (int s = 0; s < series.size(); s++) {
                double v = c < series.get(s).values().size() ? series.get(s).values().get(c) : Double.NaN;
                if (!finite(v)) {
                    continue;
                }
                double h = (H - TOP - BOTTOM) * v / max;
                double x = gx + groupW * 0.1 + s * barW;
                svg.append(String.format(Locale.ROOT,
                        "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='%s'><title>%s %s: %s %s</title></rect>",
                        x, H - BOTTOM - h, Math.max(1, barW - 1), h, COLORS[s % COLORS.length], esc(series.get(s).name()),
                        esc(categories.get(c)), fmt(v), esc(unit)));
            }
            svg.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%s</text>",
                    gx + groupW / 2, H - BOTTOM + 15, esc(categories.get(c))));
        }
        legend(svg, series);
        return new Chart(title, svg.append("</svg>").toString());
    }

    static Chart lines(String title, String unit, String xLabel, List<Double> xs, List<Series> series) {
        double maxY = niceMax(series.stream().flatMap(s -> s.values().stream()).filter(Svg::finite)
                .mapToDouble(Double::doubleValue).max().orElse(1));
        double maxX = niceMax(xs.stream().mapToDouble(Double::doubleValue).max().orElse(1));
        StringBuilder svg = frame(title, unit, maxY);
        int plotW = W - LEFT - 20;
        for (int s = 0; s < series.size(); s++) {
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < xs.size() && i < series.get(s).values().size(); i++) {
                double v = series.get(s).values().get(i);
                if (!finite(v)) {
                    continue;
                }
                double x = LEFT + plotW * xs.get(i) / maxX;
                double y = H - BOTTOM - (H - TOP - BOTTOM) * v / maxY;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                svg.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='3' fill='%s'><title>%s at %s: %s %s</title></circle>",
                        x, y, COLORS[s % COLORS.length], esc(series.get(s).name()), fmt(xs.get(i)), fmt(v), esc(unit)));
            }
            svg.append(String.format("<polyline fill='none' stroke='%s' stroke-width='2' points='%s'/>",
                    COLORS[s % COLORS.length], points));
        }
        for (double x : xs) {
            svg.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' font-size='11' text-anchor='middle'>%s</text>",
                    LEFT + plotW * x / maxX, H - BOTTOM + 15, fmt(x)));
        }
        svg.append(String.format("<text x='%d' y='%d' font-size='11' text-anchor='middle'>%s</text>", LEFT + plotW / 2,
                H - BOTTOM + 32, esc(xLabel)));
        legend(svg, series);
        return new Chart(title, svg.append("</svg>").toString());
    }

    private static StringBuilder frame(String title, String unit, double max) {
        StringBuilder svg = new StringBuilder(String.format(
                "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 %d %d' role='img'"
                        + " font-family='sans-serif'><title>%s</title><rect width='100%%' height='100%%' fill='#fff'/><text x='%d' y='18' font-size='14' font-weight='bold'>%s</text>",
                W, H, W, H, esc(title), LEFT, esc(title)));
        for (int i = 0; i <= 4; i++) {
            double v = max * i / 4;
            double y = H - BOTTOM - (H - TOP - BOTTOM) * i / 4.0;
            svg.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/>"
                    + "<text x='%d' y='%.1f' font-size='10' text-anchor='end'>%s</text>", LEFT, W - 20, y, y, LEFT - 4,
                    y + 3, fmt(v)));
        }
        svg.append(String.format("<text x='12' y='%d' font-size='11' transform='rotate(-90 12 %d)' text-anchor='middle'>%s</text>",
                H / 2, H / 2, esc(unit)));
        return svg;
    }

    private static void legend(StringBuilder svg, List<Series> series) {
        for (int s = 0; s < series.size(); s++) {
            int x = LEFT + s * 130;
            svg.append(String.format("<rect x='%d' y='%d' width='10' height='10' fill='%s'/><text x='%d' y='%d' font-size='11'>%s</text>",
                    x, H - 14, COLORS[s % COLORS.length], x + 14, H - 5, esc(series.get(s).name())));
        }
    }

    private static double niceMax(double max) {
        if (!(max > 0)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= max) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static boolean finite(double v) {
        return !Double.isNaN(v) && !Double.isInfinite(v);
    }

    static String fmt(double v) {
        if (Math.abs(v) >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;");
    }
}
