package com.shop.orders.testsupport;

import java.time.Duration;

import org.awaitility.Awaitility;

import io.quarkus.test.junit.callback.QuarkusTestBeforeClassCallback;

/**
 * Awaitility's defaults for the suite: a condition is looked at at once, then every 50 ms, where Awaitility waits
 * 100 ms before the first look and between looks. What the tests wait for are cheap reads (a row, a counter, a
 * sandbox's record), often true at the first look; each wait keeps its own atMost. Set before every @QuarkusTest
 * class (registered in META-INF/services, in the test's class loader, whose Awaitility the test uses); other tests
 * call {@link #apply()}.
 */
public final class PromptPolling implements QuarkusTestBeforeClassCallback {

    @Override
    public void beforeClass(Class<?> testClass) {
        apply();
    }

    public static void apply() {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultPollInterval(Duration.ofMillis(50));
    }
}
