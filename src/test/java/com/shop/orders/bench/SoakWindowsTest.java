package com.shop.orders.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The soak's arithmetic: how a soak is cut into windows and which of them are its warm part, the rule a figure per
 * window is held to after it, and the share of each fate among the orders placed.
 */
class SoakWindowsTest {

    @ParameterizedTest(name = "{0} min: {2} windows of {1} s, {3} warm")
    @CsvSource({
            "60, 60, 60, 10",
            "30, 60, 30, 10",
            "20, 60, 20, 6",
            "6, 60, 6, 2",
            "5, 50, 6, 2",
            "1, 10, 6, 2"})
    void windowsAndWarmPart(int minutes, int windowSeconds, int windows, int warm) {
        SoakWindows soak = new SoakWindows(Duration.ofMinutes(minutes));

        assertEquals(Duration.ofSeconds(windowSeconds), soak.window());
        assertEquals(windows, soak.count());
        assertEquals(warm, soak.warmWindows());
        assertEquals(minutes >= 30, soak.warmIsTenMinutes());
    }

    @Test
    void answersCountInTheWindowTheyWereDueIn() {
        SoakWindows soak = new SoakWindows(Duration.ofMinutes(1));
        long window = soak.window().toNanos();

        soak.answer(soak.originNanos(), true, 5, true);
        soak.answer(soak.originNanos() + window + 1, false, 7, false);
        // due before the origin or after the end: the first window, the last
        soak.answer(soak.originNanos() - 1, true, 9, true);
        soak.answer(soak.boundaryNanos(soak.count()) + window, true, 11, true);

        assertEquals(List.of(5.0, 9.0, 11.0), soak.placements());
        assertEquals(soak.count() + 1, soak.gcUnread(), "no boundary read yet");
    }

    @Test
    void theServicesCpuPerWindowIsItsCpuTimeOverTheWindowsLength() {
        SoakWindows soak = new SoakWindows(Duration.ofMinutes(1));
        double windowMs = soak.window().toMillis();

        soak.cpuAt(0, 1_000);
        soak.cpuAt(1, 1_000 + windowMs / 2);
        soak.cpuAt(2, 1_000 + windowMs / 2 + windowMs * 1.5);

        assertEquals(0.5, soak.serviceCpuCores(0), 1e-9);
        assertEquals(1.5, soak.serviceCpuCores(1), 1e-9);
        assertTrue(Double.isNaN(soak.serviceCpuCores(2)), "boundary 3 not read");
        assertTrue(Double.isNaN(soak.serviceCpuCoresOverall()), "the last boundary not read");
        soak.cpuAt(soak.count(), 1_000 + windowMs * soak.count());
        assertEquals(1.0, soak.serviceCpuCoresOverall(), 1e-9);
    }

    @Test
    void afterTheWarmPartAFigureMayNotClimbPastItsTolerance() {
        List<Double> flat = List.of(300.0, 310.0, 305.0, 320.0, 318.0, Double.NaN);
        List<Double> climbing = List.of(300.0, 310.0, 320.0, 330.0, 340.0, 350.0);
        List<Double> falling = List.of(30.0, 20.0, 12.0, 11.0, 10.0, 10.0);

        AfterWarmUp holds = AfterWarmUp.of(flat, 2, 0.05);
        assertEquals(300.0, holds.warmMin());
        assertEquals(310.0, holds.warmMax());
        assertEquals(320.0, holds.afterMax());
        assertTrue(holds.holds(), "320 <= 310 + 5 %");
        assertFalse(AfterWarmUp.of(climbing, 2, 0.05).holds(), "350 > 310 + 5 %");
        assertTrue(AfterWarmUp.of(falling, 2, 0.2).holds(), "lower than the warm part is no regression");
        assertFalse(AfterWarmUp.of(List.of(Double.NaN, Double.NaN, 1.0), 2, 0.2).holds(), "no warm value");
    }

    @Test
    void ofEveryFortyOrdersHalfArePaidByNotifyATenthOfThoseRefundedAndOneInTwentyPaidWithTheNotifyLost() {
        Map<SoakTraffic.Fate, Integer> fates = new EnumMap<>(SoakTraffic.Fate.class);
        for (long k = 0; k < 400; k++) {
            fates.merge(SoakTraffic.Fate.of(k), 1, Integer::sum);
        }

        assertEquals(20, fates.get(SoakTraffic.Fate.NOTIFY_THEN_REFUND));
        assertEquals(180, fates.get(SoakTraffic.Fate.NOTIFY));
        assertEquals(20, fates.get(SoakTraffic.Fate.NOTIFY_LOST));
        assertEquals(180, fates.get(SoakTraffic.Fate.UNPAID));
    }
}
