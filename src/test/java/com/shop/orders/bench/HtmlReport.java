package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The run as one self-contained HTML page: verdicts, inline SVG charts and the JSON figures. No scripts. */
final class HtmlReport {

    private HtmlReport() {
    }

    static void write(Results results, Path file) {
        StringBuilder html = new StringBuilder("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
                + "<title>Order service benchmark</title><style>body{font-family:sans-serif;margin:2em;max-width:1000px}"
                + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
                + ".PASS{color:#1a7f37;font-weight:bold}.MISS{color:#cf222e;font-weight:bold}.info{color:#666}"
                + "pre{background:#f6f8fa;padding:1em;overflow:auto;font-size:12px}svg{margin:1em 0;display:block}"
                + "</style></head><body><h1>Order service benchmark</h1>");
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
        results.charts().forEach(html::append);
        try {
            String json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(map);
            html.append("<h2>Figures (as in the JSON file)</h2><pre>").append(Svg.esc(json)).append("</pre>");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        html.append("</body></html>\n");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, html);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
