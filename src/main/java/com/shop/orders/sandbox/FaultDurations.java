package com.shop.orders.sandbox;

import io.quarkus.runtime.configuration.DurationConverter;
import java.time.Duration;

/** The durations of both sandboxes' fault knobs, read like config ("1500ms", "5s", "PT5S"). */
public final class FaultDurations {

    private FaultDurations() {
    }

    public static Duration parse(String text) {
        Duration duration;
        try {
            duration = DurationConverter.parseDuration(text.trim());
        } catch (RuntimeException e) {
            duration = null;
        }
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException("not a duration like 500ms, 5s or PT5S: " + text);
        }
        return duration;
    }
}
