package com.shop.orders.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * What tracing may cost in production, as application.properties sets it: a bounded queue of finished spans, exports
 * that give up, a sampled share of new traces, JSON log lines; and off in dev and tests unless asked.
 */
class TracingSettingsTest {

    @Test
    void anUnreachableCollectorCostsABoundedQueueAndExportsThatGiveUp() {
        int queue = Integer.parseInt(ServiceSettings.production("quarkus.otel.bsp.max.queue.size"));
        assertTrue(queue > 0 && queue <= 4096, "finished spans held at most: " + queue);
        assertTrue(ServiceSettings.duration(ServiceSettings.production("quarkus.otel.exporter.otlp.traces.timeout"))
                .compareTo(Duration.ofSeconds(10)) <= 0);
        assertEquals("http/protobuf", ServiceSettings.production("quarkus.otel.exporter.otlp.traces.protocol"));
    }

    @Test
    void productionKeepsATenthOfNewTracesByDefaultAndLogsJson() {
        assertEquals("${OTEL_TRACES_SAMPLER_ARG:0.1}", ServiceSettings.production("quarkus.otel.traces.sampler.arg"));
        assertEquals("${OTEL_SDK_DISABLED:false}", ServiceSettings.production("quarkus.otel.sdk.disabled"));
        assertEquals("true", ServiceSettings.production("quarkus.log.console.json.enabled"));
        var properties = ServiceSettings.applicationProperties();
        assertEquals("${OTEL_SDK_DISABLED:true}", properties.getProperty("%dev.quarkus.otel.sdk.disabled"));
        assertEquals("${OTEL_SDK_DISABLED:true}", properties.getProperty("%test.quarkus.otel.sdk.disabled"));
        assertEquals("false", properties.getProperty("%dev.quarkus.log.console.json.enabled"));
    }
}
