package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.testsupport.OtlpReceiver;

/**
 * Phase 8: what tracing costs. Three instances of the service, alike but for tracing (off; on, keeping 10 % of new
 * traces; on, keeping all), export to an OTLP/HTTP collector in the benchmark's process, which only counts what it
 * receives. They get the same offered load in interleaved rounds ({@link InterleavedRounds}); the figure is each
 * round's traced CPU per order over the same round's untraced one, median of the rounds, with where that CPU went by
 * kind of thread and the answers' latency. Each instance has an expiry pipeline of its own, so that it does the work
 * of its own orders only.
 */
final class TracingPhase {

    static final String NAME = "8 tracing cost";
    /** Orders per second in the measured rounds: about a third of what an instance placed at saturation here. */
    private static final int RATE = 400;

    private record Variant(String name, Map<String, String> settings) {
    }

    private final Bench bench;

    TracingPhase(Bench bench) {
        this.bench = bench;
    }

    void run() {
        Catalog.Range skus = bench.catalog().create(bench.size().spreadSkus(), 100_000_000);
        try (OtlpReceiver collector = start()) {
            List<Variant> variants = List.of(
                    new Variant("off", Map.of("quarkus.otel.sdk.disabled", "true")),
                    traced("ratio 0.1", "0.1", collector),
                    traced("ratio 1.0", "1.0", collector));
            Map<String, ServiceProcess> instances = new LinkedHashMap<>();
            try {
                for (Variant variant : variants) {
                    String name = "tracing-" + variant.name().replace(' ', '-').replace('.', '-');
                    bench.stack().rocketMq().createTopics(name + "-expiry");
                    ServiceProcess instance = bench.stack().addReplica(name, bench.service().artifact(),
                            InterleavedRounds.isolated(name, variant.settings()));
                    instance.start();
                    instances.put(variant.name(), instance);
                }
                InterleavedRounds.Figures figures = new InterleavedRounds(bench, NAME, RATE).run(instances, skus);
                report(figures, collector);
            } finally {
                instances.values().forEach(ServiceProcess::close);
            }
        }
    }

    private void report(InterleavedRounds.Figures figures, OtlpReceiver collector) {
        Map<String, Object> results = bench.results().phase(NAME);
        List<Double> tenthOverOff = figures.overBaseline("ratio 0.1", "off");
        List<Double> allOverOff = figures.overBaseline("ratio 1.0", "off");
        results.put("overOffByRound", Map.of("ratio 0.1", tenthOverOff, "ratio 1.0", allOverOff));
        results.put("spansReceived", collector.spanCount());
        double off = figures.medianCpu("off");
        double tenth = figures.medianCpu("ratio 0.1");
        double all = figures.medianCpu("ratio 1.0");
        bench.results().info(NAME, "service CPU ms per placed order at " + RATE + " orders/s (median of rounds)",
                String.format("off %.3f, ratio 0.1 %.3f, ratio 1.0 %.3f", off, tenth, all));
        double tenthCost = Stats.median(tenthOverOff) - 1;
        bench.results().verdict(NAME, "CPU per order at ratio 0.1 over tracing off, median of the rounds' ratios",
                InterleavedRounds.percents(tenthOverOff), "<= +10 %", tenthCost <= 0.10);
        bench.results().info(NAME, "CPU per order at ratio 1.0 over tracing off, median of the rounds' ratios",
                InterleavedRounds.percents(allOverOff));
        if (collector.spanCount() == 0) {
            bench.results().problem("tracing: the collector received no span from the traced instances");
        }
        bench.results().chart(Svg.bars("Service CPU per placed order at " + RATE
                + " orders/s by tracing (medians of rounds)", "CPU ms per order", List.of("off", "ratio 0.1", "ratio 1.0"),
                List.of(new Svg.Series("service", List.of(off, tenth, all)))));
    }

    private static Variant traced(String name, String ratio, OtlpReceiver collector) {
        return new Variant(name, Map.of("quarkus.otel.sdk.disabled", "false",
                "quarkus.otel.exporter.otlp.traces.endpoint", collector.endpoint(),
                "quarkus.otel.traces.sampler.arg", ratio));
    }

    private static OtlpReceiver start() {
        try {
            return OtlpReceiver.counting();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
