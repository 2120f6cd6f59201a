package com.shop.orders.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;
import com.shop.orders.harness.ServiceStack;

/**
 * Phase 9: what encrypting every connection costs. A stack of its own whose servers serve TLS and plaintext alike
 * ({@link ServiceStack#startSecuredWithPlaintext}: MariaDB, Redis, the RocketMQ name server and broker, with the
 * service's users and the broker's ACL), and two instances alike but for TLS: one reaches all three over TLS, their
 * certificates verified, the other in plaintext; both as the same database and Redis users, both signing their broker
 * requests (each as a broker user of its own, for an expiry pipeline of its own). Start-up: each restarted in
 * alternating order, spawn to ready (readiness asks the database). Placement: the same offered load in interleaved
 * rounds ({@link InterleavedRounds}); the figure is each round's CPU per order over TLS over the same round's in
 * plaintext, median of the rounds.
 */
final class SecureConnectionsPhase {

    static final String NAME = "9 secure connections";
    /**
     * Orders per second in the measured rounds: below what this host carries with every connection encrypted. At the
     * tracing phase's 400/s the executable's TLS instance, its MariaDB, Redis and broker serving TLS beside it, took
     * the 2 cores: answers' p99 22-38 s and orders failed, so CPU per order measured the queue, not the work.
     */
    private static final int RATE = 200;
    private static final String TLS = "TLS";
    private static final String PLAINTEXT = "plaintext";

    private final Bench bench;

    SecureConnectionsPhase(Bench bench) {
        this.bench = bench;
    }

    void run() {
        Path dir = bench.runDir().resolve("secured");
        Progress.say("  starting a stack whose servers serve TLS and plaintext, with the service's users");
        try (ServiceStack stack = ServiceStack.startSecuredWithPlaintext(dir.resolve("stack"), 0,
                bench.stack().timings(), Map.of())) {
            Map<String, ServiceProcess> instances = new LinkedHashMap<>();
            instances.put(TLS, instance(stack, "secured-tls", Map.of()));
            instances.put(PLAINTEXT, instance(stack, "secured-plaintext", stack.plaintextSettings()));
            try {
                Map<String, List<Long>> startups = startups(instances, InterleavedRounds.rounds(bench.size()));
                Bench local = bench.on(stack, instances.get(PLAINTEXT), dir);
                Catalog.Range skus = local.catalog().create(bench.size().spreadSkus(), 100_000_000);
                InterleavedRounds.Figures figures = new InterleavedRounds(local, NAME, RATE).run(instances, skus);
                report(figures, startups, stack);
            } finally {
                instances.values().forEach(ServiceProcess::close);
            }
        }
    }

    /** A started instance with an expiry pipeline of its own, as a broker user of its own with that pipeline's rights. */
    private ServiceProcess instance(ServiceStack stack, String name, Map<String, String> settings) {
        String password = name + "-bench-only-password";
        stack.rocketMq().createTopics(name + "-expiry");
        stack.rocketMq().addUser(name, password, "Topic:" + name + "-expiry=Pub,Sub",
                "Group:" + name + "-expiry-consumer=Sub", "Topic:" + ServiceStack.PAID_TOPIC + "=Pub",
                "Topic:" + ServiceStack.REFUNDED_TOPIC + "=Pub", "Topic:RMQ_SYS_TRANS_HALF_TOPIC=Pub");
        Map<String, String> own = new LinkedHashMap<>(settings);
        own.put("shop.rocketmq.access-key", name);
        own.put("shop.rocketmq.secret-key", password);
        ServiceProcess instance = stack.addReplica(name, bench.service().artifact(), InterleavedRounds.isolated(name,
                own));
        instance.start();
        return instance;
    }

    /** Each instance stopped and started again, in alternating order, {@code rounds} times: spawn to ready, ms. */
    private Map<String, List<Long>> startups(Map<String, ServiceProcess> instances, int rounds) {
        Map<String, List<Long>> startups = new LinkedHashMap<>();
        instances.keySet().forEach(name -> startups.put(name, new ArrayList<>()));
        List<String> names = new ArrayList<>(instances.keySet());
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < names.size(); i++) {
                String name = names.get((i + round) % names.size());
                ServiceProcess instance = instances.get(name);
                instance.terminate(Duration.ofSeconds(30));
                instance.start();
                startups.get(name).add(instance.startupTime().toMillis());
                Progress.say("  %s: ready %d ms after spawn", name, instance.startupTime().toMillis());
            }
        }
        return startups;
    }

    private void report(InterleavedRounds.Figures figures, Map<String, List<Long>> startups, ServiceStack stack) {
        Map<String, Object> results = bench.results().phase(NAME);
        List<Double> tlsOverPlaintext = figures.overBaseline(TLS, PLAINTEXT);
        results.put("tlsOverPlaintextByRound", tlsOverPlaintext);
        results.put("startupMs", startups);
        results.put("migrationMs", stack.migrationTime().toMillis());
        double tls = figures.medianCpu(TLS);
        double plaintext = figures.medianCpu(PLAINTEXT);
        bench.results().info(NAME, "service CPU ms per placed order at " + RATE + " orders/s (median of rounds)",
                String.format("TLS %.3f, plaintext %.3f", tls, plaintext));
        bench.results().info(NAME, "CPU per order over TLS over plaintext, median of the rounds' ratios",
                InterleavedRounds.percents(tlsOverPlaintext));
        Map<String, Double> medianStartup = new LinkedHashMap<>();
        startups.forEach((name, ms) -> medianStartup.put(name, Stats.median(ms.stream().map(Long::doubleValue)
                .toList())));
        bench.results().info(NAME, "start-up, spawn to ready (median of " + startups.get(TLS).size() + " starts)",
                String.format("TLS %.0f ms, plaintext %.0f ms", medianStartup.get(TLS), medianStartup.get(PLAINTEXT)));
        bench.results().info(NAME, "the migrations' own run over TLS, as the schema's owner (spawn to exit)",
                stack.migrationTime().toMillis() + " ms");
        bench.results().chart(Svg.bars("Service CPU per placed order at " + RATE
                + " orders/s, every connection over TLS or in plaintext (medians of rounds)", "CPU ms per order",
                List.of(TLS, PLAINTEXT), List.of(new Svg.Series("service", List.of(tls, plaintext)))));
    }
}
