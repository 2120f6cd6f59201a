package com.shop.orders.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kinds of thread the benchmark's CPU breakdown tells apart, from the names /proc shows: a JVM's keep their first
 * 15 characters, a native executable's their last 15.
 */
class CpuMeterTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            // a JVM's threads, by the head of their names
            "vert.x-eventloo, event loops",
            "executor-thread, workers",
            "vert.x-worker-t, workers",
            "BatchSpanProces, span export",
            "C2 CompilerThre, jit",
            "GC Thread#1, collector",
            "VM Thread, collector",
            // a native executable's, by the tail
            "ntloop-thread-0, event loops",
            "tloop-thread-11, event loops",
            "ecutor-thread-3, workers",
            "worker-thread-0, workers",
            "_WorkerThread-1, span export",
            // the rest, whichever end shows
            "rocketmq-8, other",
            "tWorkerThread_1, other",
            "agroal-11, other",
            "-thread-checker, other",
            "thread-1, other" })
    void aThreadsKindFromItsNameInProc(String name, String kind) {
        assertEquals(kind, CpuMeter.threadKind(name));
    }
}
