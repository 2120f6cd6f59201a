package com.shop.orders.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * A run's report: the page holds each chart, and each chart is also a standalone SVG file beside it that an image
 * tag can show (the SVG namespace, a white background), named after its title.
 */
class HtmlReportTest {

    static final String SVG_NS = "http://www.w3.org/2000/svg";

    @TempDir
    Path dir;

    @Test
    void everyChartIsOnThePageAndAStandaloneSvgFile() throws Exception {
        Results results = new Results("quick");
        results.info("2 placement spread", "median ratio to limit, 32 conns", "0.62 (1450/s, p99 41.2 ms)");
        results.chart(Svg.bars("Throughput by concurrency <spread SKUs> & limits", "orders/s", List.of("8 conns",
                "32 conns"), List.of(new Svg.Series("service", List.of(900.0, 1450.0)))));
        results.chart(Svg.lines("Soak: p99 per window", "ms", "minutes", List.of(1.0, 2.0),
                List.of(new Svg.Series("place", List.of(30.0, Double.NaN)))));
        // The same title again (a phase that draws it twice): a second file, not the first one overwritten.
        results.chart(Svg.lines("Soak: p99 per window", "ms", "minutes", List.of(1.0), List.of(
                new Svg.Series("pay", List.of(12.0)))));
        Path page = dir.resolve("20250101-000000.html");

        HtmlReport.write(results, page);

        String html = Files.readString(page);
        assertTrue(html.contains("Throughput by concurrency &lt;spread SKUs&gt; &amp; limits"), html);
        assertEquals(3, html.split("<svg ", -1).length - 1, "three charts inline");
        Path charts = dir.resolve("20250101-000000-charts");
        assertEquals(List.of("soak-p99-per-window-2.svg", "soak-p99-per-window.svg",
                "throughput-by-concurrency-spread-skus-limits.svg"), fileNames(charts));
        for (Path file : svgFiles(charts)) {
            assertStandaloneSvg(file);
        }
    }

    /** The file parses as XML, its root is an svg element of the SVG namespace, painted white under the chart. */
    static void assertStandaloneSvg(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Element root = factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
        assertEquals("svg", root.getLocalName(), file.toString());
        assertEquals(SVG_NS, root.getNamespaceURI(), file.toString());
        Element background = (Element) root.getElementsByTagNameNS(SVG_NS, "rect").item(0);
        assertEquals("#fff", background.getAttribute("fill"), file + ": white background first");
        assertEquals("100%", background.getAttribute("width"), file + ": background covers the chart");
    }

    static List<Path> svgFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".svg")).sorted().toList();
        }
    }

    private static List<String> fileNames(Path dir) throws IOException {
        return svgFiles(dir).stream().map(f -> f.getFileName().toString()).toList();
    }
}
