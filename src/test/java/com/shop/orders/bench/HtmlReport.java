package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The run as one self-contained HTML page: verdicts, inline SVG charts and the JSON figures. No scripts. Each chart
 * is also written as a file of its own beside the page ({@link #chartsDir}), for documents that show it as an image.
 */
final class HtmlReport {

    private static final String STYLE = "body{font-family:sans-serif;margin:2em;max-width:1000px}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
            + ".PASS{color:#1a7f37;font-weight:bold}.MISS{color:#cf222e;font-weight:bold}.info{color:#666}"
            + "pre{background:#f6f8fa;padding:1em;overflow:auto;font-size:12px}svg{margin:1em 0;display:block}";

    private HtmlReport() {
    }

    static void write(Results results, Path file) {
        StringBuilder html = new StringBuilder();
        var map = results.toMap();
        html.append("<p>Size <b>").append(Svg.esc(String.valueOf(map.get("size")))).append("</b>, started ")
                .append(Svg.esc(String.valueOf(map.get("startedAt")))).append(", finished ")
                .append(Svg.esc(String.valueOf(map.get("finishedAt")))).append(". Machine: ")
                .append(Svg.esc(String.valueOf(map.get("machine")))).append(".</p>");
        html.append("<h2>Targets</h2><table><tr><th></th><th>Phase</th><th>Figure</th><th>Value</th><th>Target</th></tr>");
        for (Results.Verdict v : results.verdicts()) {
            html.append("<tr><td class='").append(v.mark()).append("'>").append(v.mark()).append("</td><td>")
                    .append(Svg.esc(v.phase())).append("</td><td>").append(Svg.esc(v.figure())).append("</td><td>")
                    .append(Svg.esc(v.value())).append("</td><td>").append(Svg.esc(v.target())).append("</td></tr>");
        }
        html.append("</table>");
        if (!results.problems().isEmpty()) {
            html.append("<h2>Problems</h2><ul>");
            results.problems().forEach(p -> html.append("<li>").append(Svg.esc(p)).append("</li>"));
            html.append("</ul>");
        }
        html.append("<h2>Charts</h2>");
        results.charts().forEach(chart -> html.append(chart.svg()));
        try {
            String json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(map);
            html.append("<h2>Figures (as in the JSON file)</h2><pre>").append(Svg.esc(json)).append("</pre>");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        writePage(file, "Order service benchmark", html, results.charts());
    }

    /** A page in the report's style, with {@code body} under its heading, and its charts as files beside it. */
    static void writePage(Path file, String title, CharSequence body, List<Svg.Chart> charts) {
        String html = "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>" + Svg.esc(title)
                + "</title><style>" + STYLE + "</style></head><body><h1>" + Svg.esc(title) + "</h1>" + body
                + "</body></html>\n";
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, html);
            writeCharts(chartsDir(file), charts);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where a report's charts go as files: bench/results/&lt;report-name&gt;-charts/&lt;chart-slug&gt;.svg. */
    static Path chartsDir(Path report) {
        String name = report.getFileName().toString().replaceFirst("\\.html$", "");
        return report.resolveSibling(name + "-charts");
    }

    private static void writeCharts(Path dir, List<Svg.Chart> charts) throws IOException {
        if (charts.isEmpty()) {
            return;
        }
        Files.createDirectories(dir);
        // Two charts of one title (a phase run twice) keep both files: the second gets "-2".
        Set<String> taken = new HashSet<>();
        for (Svg.Chart chart : charts) {
            String slug = chart.slug();
            for (int n = 2; !taken.add(slug); n++) {
                slug = chart.slug() + "-" + n;
            }
            Files.writeString(dir.resolve(slug + ".svg"), chart.document());
        }
    }
}
