package com.shop.orders.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The native executable beside the jar as one self-contained page (the single-run report's style): each headline
 * figure's runs, medians and ratio, then a chart per figure family with the two artifacts' medians side by side, then
 * links to every run's own report. The charts are also written as files ({@link HtmlReport#chartsDir}).
 */
final class ComparisonReport {

    static final String JAR = "jar";
    static final String NATIVE = "native executable";

    private ComparisonReport() {
    }

    static void write(String size, List<String> phases, int rounds, List<ArtifactComparison.Compared> figures,
            List<ArtifactComparison.Run> runs, Path file) {
        StringBuilder html = new StringBuilder();
        html.append("<p>Size <b>").append(Svg.esc(size)).append("</b>, phases ")
                .append(Svg.esc(String.join(", ", phases))).append(", ").append(rounds)
                .append(" interleaved rounds each (the order alternating). Medians of the rounds; the ratio is the "
                        + "executable's median over the jar's.</p>");
        html.append("<h2>Figures</h2><table><tr><th>Figure</th><th>native runs</th><th>native median</th>"
                + "<th>jar runs</th><th>jar median</th><th>native / jar</th></tr>");
        for (ArtifactComparison.Compared f : figures) {
            html.append("<tr><td>").append(Svg.esc(f.figure())).append("</td><td>").append(runs(f.nativeRuns()))
                    .append("</td><td><b>").append(number(f.nativeMedian())).append("</b></td><td>")
                    .append(runs(f.jvmRuns())).append("</td><td><b>").append(number(f.jvmMedian()))
                    .append("</b></td><td>").append(number(f.ratio())).append("</td></tr>");
        }
        html.append("</table>");
        List<Svg.Chart> charts = charts(figures);
        html.append("<h2>Charts</h2>");
        charts.forEach(chart -> html.append(chart.svg()));
        html.append("<h2>Runs</h2><ul>");
        for (ArtifactComparison.Run run : runs) {
            html.append("<li>round ").append(run.round()).append(", ").append(Svg.esc(run.artifact())).append(": ")
                    .append(link(file, run.html(), "report")).append(", ").append(link(file, run.json(), "JSON"));
            if (!run.problems().isEmpty()) {
                html.append(" <span class='MISS'>").append(run.problems().size()).append(" problem(s)</span>");
            }
            html.append("</li>");
        }
        html.append("</ul>");
        HtmlReport.writePage(file, "Native executable beside the jar", html, charts);
    }

    /** A chart per family that has a figure: the jar's median and the executable's, side by side. */
    static List<Svg.Chart> charts(List<ArtifactComparison.Compared> figures) {
        List<Svg.Chart> charts = new ArrayList<>();
        for (ArtifactComparison.Family family : ArtifactComparison.Family.values()) {
            List<ArtifactComparison.Compared> drawn = figures.stream().filter(f -> f.family() == family).toList();
            if (drawn.isEmpty()) {
                continue;
            }
            charts.add(Svg.bars(family.title + ": jar and native executable (medians)", family.unit,
                    drawn.stream().map(ArtifactComparison.Compared::label).toList(), List.of(
                            new Svg.Series(JAR, drawn.stream().map(f -> orNaN(f.jvmMedian())).toList()),
                            new Svg.Series(NATIVE, drawn.stream().map(f -> orNaN(f.nativeMedian())).toList()))));
        }
        return charts;
    }

    private static double orNaN(Double value) {
        return value == null ? Double.NaN : value;
    }

    private static String number(Double value) {
        return value == null ? "-" : Svg.fmt(value);
    }

    private static String runs(List<Double> values) {
        return values.stream().map(Svg::fmt).reduce((a, b) -> a + ", " + b).orElse("-");
    }

    /** A link from the page to a run's file, relative when they share a folder (the results folder moves whole). */
    private static String link(Path page, Path target, String text) {
        Path dir = page.toAbsolutePath().getParent();
        Path to = target.toAbsolutePath();
        String href = to.startsWith(dir) ? dir.relativize(to).toString() : to.toUri().toString();
        return "<a href='" + Svg.esc(href) + "'>" + text + "</a>";
    }
}
