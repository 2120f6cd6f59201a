package com.shop.orders.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where the CPU of a run goes: the CPU time of the service, the broker and MariaDB (from /proc), and of the whole
 * machine, between two readings, per order. The rest of the machine's share is the load generator and everything
 * else on the host. Reads Linux's /proc; where it cannot, the figures are 0.
 */
final class CpuMeter {

    /** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
    private static final double MS_PER_TICK = 10.0;

    private final Map<String, Long> pids = new LinkedHashMap<>();

    /** CPU ticks of each process and of the whole machine at one moment. */
    record Reading(Map<String, Long> ticks, long machine) {
    }

    CpuMeter(Bench bench) {
        pids.put("service", bench.service().pid());
        pids.put("broker", bench.stack().rocketMq().brokerPid());
        pids.put("mariadb", bench.stack().mariaDb().pid());
    }

    Reading read() {
        Map<String, Long> ticks = new LinkedHashMap<>();
        pids.forEach((name, pid) -> ticks.put(name, processTicks(pid)));
        return new Reading(ticks, machineTicks());
    }

    /** Milliseconds of CPU per unit of work (an order) between two readings: each process, "rest" and "machine". */
    static Map<String, Double> perUnit(Reading before, Reading after, long units) {
        Map<String, Double> ms = new LinkedHashMap<>();
        double processes = 0;
        for (String name : before.ticks().keySet()) {
            double value = (after.ticks().get(name) - before.ticks().get(name)) * MS_PER_TICK / units;
            ms.put(name, Stats.round(value, 3));
            processes += value;
        }
        double machine = (after.machine() - before.machine()) * MS_PER_TICK / units;
        ms.put("rest", Stats.round(machine - processes, 3));
        ms.put("machine", Stats.round(machine, 3));
        return ms;
    }

    /** CPU milliseconds a process has used so far; 0 when it cannot be read. */
    static double processMs(long pid) {
        return processTicks(pid) * MS_PER_TICK;
    }

    /**
     * CPU milliseconds the service's threads have used so far, by kind (the names HotSpot and the service give them: the
     * collector, the JIT compilers, Vert.x's event loops, the worker pool, the span exporter, the rest; a native
     * executable has no collector or JIT threads of its own); threads that have ended are not counted. Empty when it
     * cannot be read.
     */
    static Map<String, Double> threadMs(long pid) {
        Map<String, Double> ms = new LinkedHashMap<>();
        try (Stream<Path> threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            threads.forEach(thread -> {
                String stat = readStat(thread.resolve("stat"));
                if (stat != null) {
                    ms.merge(threadKind(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))),
                            ticks(stat) * MS_PER_TICK, Double::sum);
                }
            });
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return ms;
    }

    /** A thread's kind from its name, as /proc shows it (15 characters at most). */
    static String threadKind(String name) {
        if (named(name, "GC Thread#") || name.startsWith("G1 ") || name.equals("VM Thread")) {
            return "collector";
        }
        if (named(name, "C1 CompilerThread") || named(name, "C2 CompilerThread")) {
            return "jit";
        }
        if (named(name, "vert.x-eventloop-thread-")) {
            return "event loops";
        }
        if (named(name, "executor-thread-") || named(name, "vert.x-worker-thread-")) {
            return "workers";
        }
        // In a native executable, the tail "_WorkerThread-1" is also that of OpenTelemetry's other export threads.
        if (named(name, "BatchSpanProcessor_WorkerThread-")) {
            return "span export";
        }
        return "other";
    }

    /**
     * Whether {@code name}, as /proc shows it, is that of a thread named {@code prefix} and a number: HotSpot keeps a
     * name's first 15 characters, a native executable its last 15.
     */
    private static boolean named(String name, String prefix) {
        if (name.startsWith(prefix.substring(0, Math.min(prefix.length(), 15)))) {
            return true;
        }
        String withoutNumber = name.replaceFirst("\\d+$", "");
        return withoutNumber.length() < name.length() && withoutNumber.length() >= 8 && prefix.endsWith(withoutNumber);
    }

    /** utime + stime of a process, in ticks; 0 when it cannot be read. */
    private static long processTicks(long pid) {
        String stat = readStat(Path.of("/proc", Long.toString(pid), "stat"));
        try {
            return stat == null ? 0 : ticks(stat);
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static String readStat(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return null;
        }
    }

    /** utime + stime from a /proc stat line. */
    private static long ticks(String stat) {
        String[] fields = fieldsAfterName(stat);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * The fields of a /proc stat line after the command name, which is in parentheses and may contain spaces: the
     * state is the first, minflt the 8th, majflt the 10th, utime and stime the 12th and 13th (0-based 0, 7, 9, 11, 12).
     */
    static String[] fieldsAfterName(String stat) {
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** Busy ticks of all CPUs: everything but idle and iowait. */
    private static long machineTicks() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/stat"));
            String[] fields = lines.get(0).trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < fields.length; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(fields[i]);
                }
            }
            return busy;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
