package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.harness.ServiceStack;
import com.shop.orders.testsupport.PackagedArtifact;
import com.shop.orders.testsupport.Timings;

/**
 * Idle memory of native executables side by side: {@code IdleRss <executable> <executable> ...} (bench/idle-rss.sh)
 * starts each in turn on one stack of its own (MariaDB, Redis, RocketMQ, the Alipay sandbox), in alternating order
 * for {@code -Dbench.idle-rss.rounds} rounds (4), with the deployment's options. Each start is measured once it has
 * been ready for {@code -Dbench.idle-rss.settle-seconds} (10): its VmRSS, where the resident pages lie (the
 * executable's code, its read-only and writable image heap, anonymous memory: /proc/pid/smaps) and its page faults.
 * Prints every start and each executable's median with the range. A start before the rounds, not counted, runs the
 * migrations on the new database.
 */
public final class IdleRss {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    /** One start's figures, in MB but for the faults. */
    private record Sample(double rss, double code, double readOnlyHeap, double writableHeap, double anonymous,
            long minorFaults, long majorFaults, long readyMillis) {
    }

    private IdleRss() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: IdleRss <native executable> [<native executable> ...]");
        }
        int rounds = Integer.getInteger("bench.idle-rss.rounds", 4);
        Duration settle = Duration.ofSeconds(Long.getLong("bench.idle-rss.settle-seconds", 10));
        List<Path> executables = List.of(args).stream().map(arg -> Path.of(arg).toAbsolutePath()).toList();
        Path dir = Path.of("target/bench/idle-rss-" + STAMP.format(Instant.now()));
        Map<Path, List<Sample>> samples = new LinkedHashMap<>();
        executables.forEach(executable -> samples.put(executable, new ArrayList<>()));
        try (ServiceStack stack = ServiceStack.start(dir, 0, Timings.bench(), Map.of())) {
            measure(stack, executables.get(0), "migrations", settle);
            for (int round = 1; round <= rounds; round++) {
                List<Path> order = new ArrayList<>(executables);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Path executable : order) {
                    Sample sample = measure(stack, executable, "round-" + round, settle);
                    samples.get(executable).add(sample);
                    Progress.say("round %d %s: RSS %.1f MB (code %.1f, read-only heap %.1f, writable heap %.1f, "
                            + "anonymous %.1f), %d minor and %d major faults, ready in %d ms", round, executable,
                            sample.rss(), sample.code(), sample.readOnlyHeap(), sample.writableHeap(), sample.anonymous(),
                            sample.minorFaults(), sample.majorFaults(), sample.readyMillis());
                }
            }
        }
        samples.forEach((executable, list) -> {
            List<Double> rss = list.stream().map(Sample::rss).toList();
            Progress.say("%s: RSS median %.1f MB (%.1f-%.1f), code %.1f, read-only heap %.1f, writable heap %.1f, "
                    + "anonymous %.1f MB (medians of %d starts)", executable, Stats.median(rss), Stats.min(rss),
                    Stats.max(rss), Stats.median(list.stream().map(Sample::code).toList()),
                    Stats.median(list.stream().map(Sample::readOnlyHeap).toList()),
                    Stats.median(list.stream().map(Sample::writableHeap).toList()),
                    Stats.median(list.stream().map(Sample::anonymous).toList()), list.size());
        });
        System.exit(0);
    }

    private static Sample measure(ServiceStack stack, Path executable, String name, Duration settle)
            throws InterruptedException {
        PackagedArtifact artifact = new PackagedArtifact(true, executable, Path.of(System.getProperty("java.home")),
                System.getProperty(PackagedArtifact.PROP_NATIVE_OPTIONS, PackagedArtifact.DEFAULT_NATIVE_OPTIONS));
        ServiceProcess service = stack.addReplica(name + "-" + executable.getFileName(), artifact);
        try {
            service.start();
            Thread.sleep(settle.toMillis());
            return sample(service, executable);
        } finally {
            service.terminate(Duration.ofSeconds(20));
        }
    }

    /** VmRSS, the resident pages of the executable's mappings by permission and of anonymous ones, the faults. */
    private static Sample sample(ServiceProcess service, Path executable) {
        Path proc = Path.of("/proc", Long.toString(service.pid()));
        try {
            Map<String, Long> kilobytes = new LinkedHashMap<>();
            String mapping = "";
            for (String line : Files.readAllLines(proc.resolve("smaps"))) {
                String[] fields = line.trim().split("\\s+");
                if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                    String path = fields.length > 5 ? fields[5] : "";
                    mapping = path.equals(executable.toString()) ? fields[1] : path.isEmpty() ? "anonymous" : "other";
                } else if (fields[0].equals("Rss:")) {
                    kilobytes.merge(mapping, Long.parseLong(fields[1]), Long::sum);
                }
            }
            String[] after = CpuMeter.fieldsAfterName(Files.readString(proc.resolve("stat")));
            return new Sample(service.rssBytes() / 1048576.0, mb(kilobytes, "r-xp"), mb(kilobytes, "r--p"),
                    mb(kilobytes, "rw-p"), mb(kilobytes, "anonymous"), Long.parseLong(after[7]), Long.parseLong(after[9]),
                    service.startupTime().toMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double mb(Map<String, Long> kilobytes, String key) {
        return kilobytes.getOrDefault(key, 0L) / 1024.0;
    }
}
