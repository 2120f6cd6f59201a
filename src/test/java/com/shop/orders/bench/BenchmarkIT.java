package com.shop.orders.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The reduced benchmark (bench/run.sh quick) against the packaged service: every phase with tiny counts, the soak
 * for a minute. It proves the run is sound, never a speed figure: the results are written, every phase has its
 * numbers, nothing was oversold, no member got past the flash sale's limit, no answer was an error other than the
 * flash sale's expected 409s, and the soak's orders hold design.md's invariants.
 */
class BenchmarkIT {

    @Test
    void quickRunIsSound() throws Exception {
        Benchmark.Outcome outcome = Benchmark.run(BenchSize.of("quick"), Benchmark.PHASES, Path.of("target/bench-results"));

        assertTrue(Files.isRegularFile(outcome.json()), "results file written");
        assertTrue(Files.readString(outcome.html()).contains("<svg"), "report with charts written");
        assertEquals(List.of(), outcome.results().problems(), "unexpected answers, oversell or failed phases");
        JsonNode results = new ObjectMapper().readTree(outcome.json().toFile());
        JsonNode phases = results.get("phases");
        for (String phase : List.of("1 limit", PlacementPhase.NAME, FlashSalePhase.NAME, WatchPhase.NAME,
                NotifyPhase.NAME, WalletsPhase.NAME, "6 start-up and RSS", ColdStartPhase.NAME, TracingPhase.NAME,
                SecureConnectionsPhase.NAME, SoakPhase.NAME)) {
            assertTrue(phases.has(phase), "phase " + phase + " reported");
        }
        for (JsonNode c : phases.get(PlacementPhase.NAME).get("byConcurrency")) {
            assertTrue(c.get("medianRatio").asDouble() > 0, "placement measured at " + c.get("connections"));
        }
        assertTrue(phases.get(PlacementPhase.NAME).get("fixedRate").get("place").get("requests").asLong() > 0);
        assertEquals(0, phases.get(FlashSalePhase.NAME).get("oversold").asLong(), "no oversell");
        JsonNode flash = phases.get(FlashSalePhase.NAME);
        assertTrue(flash.get("medianRatio").asDouble() > 0, "flash sale measured");
        assertEquals(0, flash.get("membersOverLimit").asLong(), "no member over the limit of 1");
        for (String losers : List.of("losersAfterSellOut", "losersWithoutLimit", "losersEachAskingTheDatabase")) {
            assertTrue(flash.get(losers).get("statuses").get("409").asLong() > 0, "losers measured: " + losers);
            assertTrue(flash.get(losers).get("transactionsPerLoser").isNumber());
        }
        JsonNode cold = phases.get(ColdStartPhase.NAME);
        assertEquals(1, cold.get("variants").size(), "the default variant");
        assertTrue(cold.get("variants").get(0).get("windows").get(0).get("coldAnswersPerSecond").asDouble() > 0,
                "the cold instance answered");
        for (JsonNode level : phases.get(WatchPhase.NAME).get("levels")) {
            assertTrue(level.get("expired").asLong() > 0, "orders expired at " + level.get("target"));
            assertTrue(level.get("latenessSeconds").get("p99").isNumber());
            assertTrue(level.has("leftPending"), "undecided orders counted");
        }
        assertEquals(0, phases.get(WatchPhase.NAME).get("discardedHalfMessages").asLong(), "no half message discarded");
        assertTrue(phases.get(NotifyPhase.NAME).get("notify").get("ok").asLong() > 0, "notifies answered");
        for (String wallet : WalletsPhase.WALLETS) {
            JsonNode figures = phases.get(WalletsPhase.NAME).get("wallets").get(wallet);
            assertTrue(figures.get("notifyMs").get("p99").asDouble() > 0, wallet + ": notify to PAID measured");
            assertTrue(figures.get("cpuMsPerPrepay").asDouble() > 0, wallet + ": CPU per prepay measured");
            assertTrue(figures.get("cpuMsPerNotify").asDouble() > 0, wallet + ": CPU per notify measured");
            assertTrue(figures.get("lostNotifyFoundSeconds").get("count").asLong() > 0,
                    wallet + ": payments with the notify lost found");
            assertTrue(figures.get("lostNotifyFoundSeconds").get("p99").isNumber());
        }
        assertTrue(phases.get("6 start-up and RSS").get("startupMs").asLong() > 0);
        JsonNode tracing = phases.get(TracingPhase.NAME);
        for (String setting : List.of("off", "ratio 0.1", "ratio 1.0")) {
            assertTrue(tracing.get("serviceCpuMsPerOrder").get(setting).get(0).asDouble() > 0,
                    "CPU per order measured with tracing " + setting);
        }
        assertTrue(tracing.get("spansReceived").asLong() > 0, "the traced instances exported spans");
        JsonNode secured = phases.get(SecureConnectionsPhase.NAME);
        for (String setting : List.of("TLS", "plaintext")) {
            assertTrue(secured.get("serviceCpuMsPerOrder").get(setting).get(0).asDouble() > 0,
                    "CPU per order measured with " + setting);
            assertTrue(secured.get("startupMs").get(setting).get(0).asLong() > 0, "start-up measured with " + setting);
        }
        JsonNode soak = phases.get(SoakPhase.NAME);
        assertTrue(soak.get("windows").size() > 0, "the soak's windows reported");
        assertTrue(soak.get("requests").asLong() > 0, "the soak sent its traffic");
        assertEquals(0, soak.get("errors").asLong(), "no unexpected answer in the soak: " + soak.get("errorsByKind"));
        assertEquals(0, soak.get("invariantViolations").asLong(), "the soak's orders hold the invariants");
        assertFalse(results.get("verdicts").isEmpty(), "figures printed against their targets");
    }
}
