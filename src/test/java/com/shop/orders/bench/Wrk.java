package com.shop.orders.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Closed-model placement load: wrk with bench/wrk/place-orders.lua, each connection ordering one after another. */
final class Wrk {

    /** What one run did: answers by status and latency percentiles (ms). */
    record Run(int connections, double seconds, long requests, long socketErrors, Map<String, Long> statuses,
               double p50, double p90, double p99, double max) {

        long status(int code) {
            return statuses.getOrDefault(Integer.toString(code), 0L);
        }

        double perSecond(int code) {
            return status(code) / seconds;
        }

        /** Answers other than the given statuses, plus socket errors. */
        long unexpected(int... expected) {
            long ok = 0;
            for (int code : expected) {
                ok += status(code);
            }
            return requests - ok + socketErrors;
        }

        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("connections", connections);
            m.put("seconds", Stats.round(seconds, 2));
            m.put("requests", requests);
            m.put("socketErrors", socketErrors);
            m.put("statuses", statuses);
            m.put("latencyMs", Map.of("p50", p50, "p90", p90, "p99", p99, "max", max));
            return m;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path script;
    private final Path tokens;
    private final String baseUrl;

    Wrk(Path script, Path tokens, String baseUrl) {
        this.script = script;
        this.tokens = tokens;
        this.baseUrl = baseUrl;
    }

    /** The same load as other members, or against another instance. */
    Wrk with(Path otherTokens, String otherBaseUrl) {
        return new Wrk(script, otherTokens, otherBaseUrl);
    }

    Run place(int connections, Duration length, long skuFrom, long skuTo) {
        int threads = Math.min(2, connections);
        List<String> command = List.of("wrk", "-t" + threads, "-c" + connections, "-d" + Math.max(1, length.toSeconds()) + "s",
                "--timeout", "10s", "-s", script.toString(), baseUrl);
        Map<String, String> env = Map.of("SKU_FROM", Long.toString(skuFrom), "SKU_TO", Long.toString(skuTo),
                "TOKENS_FILE", tokens.toString());
        String output = Command.run(command, env, null, length.plusSeconds(60)).requireSuccess("wrk").output();
        String line = output.lines().filter(l -> l.startsWith("WRK_RESULT ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("wrk printed no result: " + Command.tail(output)));
        try {
            JsonNode r = JSON.readTree(line.substring("WRK_RESULT ".length()));
            Map<String, Long> statuses = new LinkedHashMap<>();
            r.get("statuses").fields().forEachRemaining(e -> statuses.put(e.getKey(), e.getValue().asLong()));
            JsonNode lat = r.get("latencyUs");
            return new Run(connections, r.get("durationUs").asLong() / 1e6, r.get("requests").asLong(),
                    r.get("errors").asLong(), statuses, ms(lat, "p50"), ms(lat, "p90"), ms(lat, "p99"), ms(lat, "max"));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable wrk result " + line, e);
        }
    }

    private static double ms(JsonNode latency, String field) {
        return Stats.round(latency.get(field).asDouble() / 1000.0, 2);
    }
}
