package com.shop.orders.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * How big a run is. "full" is the benchmark (about half an hour on 2 cores, and an hour more for the soak when it is
 * named); "quick" runs every phase with tiny counts for a few seconds each (the soak for a minute), to prove the run
 * works (CI, {@code BenchmarkIT}), never to judge speed.
 *
 * @param name             full or quick
 * @param payTimeout       the service's pay window for the whole run
 * @param members          distinct members (tokens) placing orders
 * @param spreadSkus       SKUs the spread placement picks from
 * @param concurrencies    connections of the closed-model placement runs
 * @param rounds           interleaved rounds (limit, service) per comparison
 * @param roundLength      length of one service round (the limit's rounds are sized to about the same)
 * @param fixedRate        orders per second of the open-model placement run
 * @param fixedRateLength  its length
 * @param flashConnections connections of the flash sale
 * @param flashStock       stock of the flash sale's SKU in each round
 * @param flashMembers     distinct members buying in the flash sale (each tries a few times)
 * @param watchLevels      pending orders held in the watch capacity phase
 * @param watchPayShare    share of the watch's orders paid with the notify lost
 * @param notifyRate       notifies per second
 * @param notifyLength     length of the notify run
 * @param warmUp           length of the warm-up before each open-model run, at its rate (not in its figures)
 * @param placementWarmUp  length of the warm-up load before the placement and the flash-sale rounds (not in the figures)
 * @param coldLength       length of the cold-start phase's load on a fresh instance, and of its warm reference run
 * @param coldRounds       interleaved rounds of the cold-start phase (each variant once per round)
 * @param soakLength       length of the soak's mixed traffic ({@code -Dbench.soak-minutes} overrides it)
 * @param soakRate         orders the soak places per second (beside them, half as many sold-out attempts;
 *                         {@code -Dbench.soak-rate} overrides it). A rate the host carries with room to spare: the
 *                         soak is about drift over time, not capacity (at 50/s the 2-core host ran out of CPU, the
 *                         jar and the executable alike, and every answer queued for seconds)
 */
record BenchSize(String name, Duration payTimeout, int members, int spreadSkus, List<Integer> concurrencies, int rounds,
                 Duration roundLength, int fixedRate, Duration fixedRateLength, int flashConnections, int flashStock, int flashMembers,
                 List<Integer> watchLevels, double watchPayShare, int notifyRate, Duration notifyLength,
                 Duration warmUp, Duration placementWarmUp, Duration coldLength, int coldRounds, Duration soakLength,
                 int soakRate) {

    static BenchSize of(String name) {
        BenchSize size = switch (name) {
            case "full" -> new BenchSize("full", Duration.ofSeconds(90), 2000, 1000, List.of(8, 32, 128), 3,
                    Duration.ofSeconds(8), 200, Duration.ofSeconds(30), 64, 500, 10_000,
                    List.of(1000, 5000, 10000, 20000), 0.1, 100, Duration.ofSeconds(30),
                    Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofSeconds(60), 3,
                    Duration.ofMinutes(60), 20);
            // One concurrency, two rounds and one watch level: every path of the run, in CI's time.
            case "quick" -> new BenchSize("quick", Duration.ofSeconds(12), 200, 1000, List.of(32), 2,
                    Duration.ofSeconds(1), 200, Duration.ofSeconds(2), 64, 50, 300,
                    List.of(300), 0.1, 100, Duration.ofSeconds(2),
                    Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(4), 1, Duration.ofMinutes(1), 20);
            default -> throw new IllegalArgumentException("size is full or quick, not " + name);
        };
        // A soak of a few minutes tries the phase out; the hour is what its figures are for.
        int soakMinutes = Integer.getInteger("bench.soak-minutes", (int) size.soakLength().toMinutes());
        if (soakMinutes < 1) {
            throw new IllegalArgumentException("bench.soak-minutes is at least 1, not " + soakMinutes);
        }
        int soakRate = Integer.getInteger("bench.soak-rate", size.soakRate());
        if (soakRate < 2) {
            throw new IllegalArgumentException("bench.soak-rate is at least 2 orders/s, not " + soakRate);
        }
        // A comparison before and after a change need not wait for the whole curve: one level, one concurrency.
        return size.with(integers("bench.concurrencies", size.concurrencies()),
                integers("bench.watch-levels", size.watchLevels()),
                Integer.getInteger("bench.cold-rounds", size.coldRounds()), Duration.ofMinutes(soakMinutes), soakRate);
    }

    private BenchSize with(List<Integer> concurrencies, List<Integer> watchLevels, int coldRounds,
            Duration soakLength, int soakRate) {
        return new BenchSize(name, payTimeout, members, spreadSkus, concurrencies, rounds, roundLength, fixedRate,
                fixedRateLength, flashConnections, flashStock, flashMembers, watchLevels, watchPayShare, notifyRate, notifyLength,
                warmUp, placementWarmUp, coldLength, coldRounds, soakLength, soakRate);
    }

    private static List<Integer> integers(String property, List<Integer> otherwise) {
        String value = System.getProperty(property);
        return value == null ? otherwise : Arrays.stream(value.split(",")).map(String::trim).map(Integer::valueOf)
                .toList();
    }

    boolean quick() {
        return name.equals("quick");
    }

    /**
     * Whether a phase waits until the orders of the phases before it are decided, so that it measures its own path
     * and not their expiry as well. The quick size cannot spend the time; its figures are not judged anyway.
     */
    boolean drainsBetweenPhases() {
        return !quick();
    }
}
