package com.shop.orders.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparison of the executable and the jar, from runs' summary lines as the phases write them: the headline
 * figures read, their medians and ratio, and the page and chart files that show the two side by side.
 */
class ArtifactComparisonTest {

    @TempDir
    Path dir;

    /** A run's lines in the phases' own wording, its numbers scaled by {@code k}. */
    private static Results run(double k) {
        Results r = new Results("quick");
        r.verdict(PlacementPhase.NAME, "median ratio to limit, 32 conns",
                String.format("%.2f (%.0f/s, p99 %.1f ms)", 0.5 * k, 1000 * k, 40 * k), ">= 0.5", true);
        r.info(PlacementPhase.NAME, "CPU ms per order, 32 conns (median of rounds)", String.format(
                "service %.2f, broker 0.20, MariaDB 0.40, rest 0.10; machine 1.55 (limit: machine 1.00, MariaDB 0.90); "
                        + "2 cores allow about 1290 orders/s", 0.8 * k));
        r.verdict(PlacementPhase.NAME, "time in collections, 32 conns (service rounds)",
                ServiceGc.describe(new ServiceGc.Totals(60_000_000_000L, 300 * k, 2 * k, 0.6 * k)), "<= 3 %", true);
        r.verdict(PlacementPhase.NAME, "p99 at 200 orders/s (open model)",
                String.format("%.0f ms (p50 %.0f, p99.9 %.0f, max %.0f)", 30 * k, 8 * k, 90 * k, 150 * k), "<= 100 ms",
                true);
        r.verdict(FlashSalePhase.NAME, "median ratio to hot-row limit, 64 conns",
                String.format("%.2f (%.0f/s)", 0.4 * k, 300 * k), ">= 0.3", true);
        r.verdict(FlashSalePhase.NAME, "losers answered 409, p99",
                String.format("%d of %d, p50 %.1f ms, p99 %.1f ms", 9500, 9500, 2 * k, 7 * k), "all, p99 <= 20 ms",
                true);
        r.info("6 start-up and RSS", "RSS idle after start", String.format("%.0f MB", 70 * k));
        r.info("6 start-up and RSS", "RSS peak under load", String.format("%.0f MB", 180 * k));
        return r;
    }

    @Test
    void readsEveryHeadlineFigureOfBothArtifacts() {
        Map<String, ArtifactComparison.Compared> figures = byName(
                ArtifactComparison.compare(List.of(run(1), run(1.2), run(0.9)), List.of(run(2), run(2.2))));

        // native medians: k = 1; jvm medians: k = 2.1
        assertFigure(figures, "placed orders/s, 32 conns", 1000, 2100);
        assertFigure(figures, "placement: ratio to the database limit, 32 conns", 0.5, 1.05);
        assertFigure(figures, "service CPU ms per placed order, 32 conns", 0.8, 1.68);
        assertFigure(figures, "placement: time in collections, 32 conns (%)", 1, 2.1);
        assertFigure(figures, "placement: full collections a minute, 32 conns", 2, 4.2);
        assertFigure(figures, "placement p99 at the fixed rate, open model (ms)", 30, 63);
        assertFigure(figures, "placement p99.9 at the fixed rate, open model (ms)", 90, 189);
        assertFigure(figures, "flash sale: winners' orders/s", 300, 630);
        assertFigure(figures, "flash sale: losers' p99 (ms)", 7, 14.7);
        assertFigure(figures, "RSS idle after start (MB)", 70, 147);
        assertFigure(figures, "RSS peak under load (MB)", 180, 378);
        assertEquals(List.of(1000.0, 1200.0, 900.0), figures.get("placed orders/s, 32 conns").nativeRuns());
        assertEquals(0.48, figures.get("placed orders/s, 32 conns").ratio());
        assertFalse(figures.containsKey("watch: close lateness p99 (s)"), "a phase that did not run has no row");
    }

    @Test
    void pageShowsMediansRatioAndBothArtifactsInEveryChart() throws Exception {
        List<ArtifactComparison.Compared> figures = ArtifactComparison.compare(List.of(run(1)), List.of(run(2)));
        Path nativeRun = dir.resolve("20250101-000000.html");
        List<ArtifactComparison.Run> runs = List.of(
                new ArtifactComparison.Run(1, "native", dir.resolve("20250101-000000.json"), nativeRun, List.of()),
                new ArtifactComparison.Run(1, "jvm", dir.resolve("20250101-001000.json"),
                        dir.resolve("20250101-001000.html"), List.of("fixed-rate placement: 3 of 6000 failed")));
        Path json = dir.resolve("compare-20250101-000000.json");

        Path page = ArtifactComparison.write("quick", List.of("placement", "flash"), 1, figures, runs, json);

        assertEquals(dir.resolve("compare-20250101-000000.html"), page);
        String html = Files.readString(page);
        assertTrue(html.contains("<tr><td>placed orders/s, 32 conns</td><td>1000</td><td><b>1000</b></td>"
                + "<td>2000</td><td><b>2000</b></td><td>0.50</td></tr>"), html);
        assertTrue(html.contains("<a href='20250101-000000.html'>report</a>"), "links to each run's report");
        assertTrue(html.contains("1 problem(s)"), "a run's problems are flagged");
        assertTrue(Files.readString(json).contains("\"nativeOverJvm\" : 0.5"), "the JSON keeps the ratio");
        List<Path> files = HtmlReportTest.svgFiles(HtmlReport.chartsDir(page));
        // throughput, latency, CPU, collections, RSS: the families these runs report
        assertEquals(5, files.size(), files.toString());
        for (Path file : files) {
            HtmlReportTest.assertStandaloneSvg(file);
            String svg = Files.readString(file);
            assertTrue(svg.contains(">" + ComparisonReport.JAR + "</text>") && svg.contains(">"
                    + ComparisonReport.NATIVE + "</text>"), file + ": both series in the legend");
        }
        String throughput = Files.readString(HtmlReport.chartsDir(page)
                .resolve("throughput-jar-and-native-executable-medians.svg"));
        assertTrue(throughput.contains("<title>jar placement, 32 conns: 2000 orders/s</title>"), throughput);
        assertTrue(throughput.contains("<title>native executable placement, 32 conns: 1000 orders/s</title>"),
                throughput);
        assertTrue(html.contains(throughput.substring(throughput.indexOf("<svg")).strip()), "the page draws it too");
    }

    @Test
    void comparesRunsMadeApartFromTheirResultsFiles() throws Exception {
        Path nativeRun = dir.resolve("20250101-000000.json");
        Path jvmRun = dir.resolve("20250101-001000.json");
        runOf("native", 1).writeJson(nativeRun);
        runOf("jvm", 2).writeJson(jvmRun);
        runOf("native", 1.2).writeJson(dir.resolve("20250102-000000.json"));

        ArtifactComparison.main(new String[] {"from", jvmRun.toString(), nativeRun.toString(),
                dir.resolve("20250102-000000.json").toString()});

        List<Path> reports;
        try (var files = Files.list(dir)) {
            reports = files.filter(f -> f.getFileName().toString().matches("compare-.*\\.json")).toList();
        }
        assertEquals(1, reports.size(), reports.toString());
        String json = Files.readString(reports.get(0));
        // native runs 1000 and 1200 (median 1100) against the jar's 2000, whatever the order given
        assertTrue(json.contains("\"nativeOverJvm\" : 0.55"), json);
        assertTrue(json.contains("\"rounds\" : 2"), json);
        assertTrue(Files.exists(dir.resolve(reports.get(0).getFileName().toString().replace(".json", ".html"))));
    }

    /** A run of one artifact, as its results say which it was. */
    private static Results runOf(String artifact, double k) {
        Results r = run(k);
        r.info("6 start-up and RSS", "service artifact", artifact);
        return r;
    }

    private static void assertFigure(Map<String, ArtifactComparison.Compared> figures, String name,
            double nativeMedian, double jvmMedian) {
        ArtifactComparison.Compared figure = figures.get(name);
        assertTrue(figure != null, name + " read from the runs' lines");
        assertEquals(nativeMedian, figure.nativeMedian(), 0.011, name + ", native median");
        assertEquals(jvmMedian, figure.jvmMedian(), 0.011, name + ", jvm median");
        assertEquals(nativeMedian / jvmMedian, figure.ratio(), 0.011, name + ", ratio");
    }

    private static Map<String, ArtifactComparison.Compared> byName(List<ArtifactComparison.Compared> figures) {
        return figures.stream().collect(Collectors.toMap(ArtifactComparison.Compared::figure, Function.identity()));
    }
}
