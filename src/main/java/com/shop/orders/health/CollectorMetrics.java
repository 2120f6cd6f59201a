package com.shop.orders.health;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;

/**
 * {@code gc.collections{collector,kind}} and {@code gc.pause.seconds{collector,kind}}: the collections of each of
 * the runtime's collectors and the time they took, read from its collector beans, so the same two meters exist on
 * the jar (G1) and on the native executable (the serial collector's "young generation scavenger" and "complete
 * scavenger"), where Micrometer's own GC meters, fed by collection notifications, are absent. Kind is full for a
 * collection of the whole heap, young otherwise. Every collection of the serial collector stops the whole process,
 * so there the time is time in pauses.
 */
@ApplicationScoped
// Created at start, so that the meters exist before the first scrape.
@Startup
public class CollectorMetrics {

    public CollectorMetrics(MeterRegistry registry) {
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            String kind = kind(collector.getName());
            FunctionCounter.builder("gc.collections", collector, GarbageCollectorMXBean::getCollectionCount)
                    .tags("collector", collector.getName(), "kind", kind)
                    .description("Collections of the heap since start").register(registry);
            FunctionCounter.builder("gc.pause.seconds", collector, c -> c.getCollectionTime() / 1000.0)
                    .tags("collector", collector.getName(), "kind", kind)
                    .description("Time the collections took since start").register(registry);
        }
    }

    /** Full for the collectors of the whole heap: the serial collector's complete one, G1's and Serial's old. */
    static String kind(String collectorName) {
        String name = collectorName.toLowerCase(Locale.ROOT);
        return name.contains("complete") || name.contains("old") || name.contains("marksweep") ? "full" : "young";
    }
}
