package com.shop.orders.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;

import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void aSelectorWithLabelsAndARangeIsOneName() {
        assertEquals(Set.of("orders_placed_total"),
                PromQl.metricNames("rate(orders_placed_total{job=~\"$job\", reason=\"EXPIRED\"}[$__rate_interval])"));
    }

    @Test
    void groupingLabelsFunctionsAndNumbersAreNotNames() {
        assertEquals(Set.of("orders_close_lateness_seconds_bucket"), PromQl.metricNames("""
                histogram_quantile(0.99,
                  sum by (namespace, job, le) (rate(orders_close_lateness_seconds_bucket[15m]))
                ) > 50"""));
    }

    @Test
    void bothSidesOfABinaryOperationAreNamed() {
        assertEquals(Set.of("expiry_checks_failures_total", "expiry_checks_seconds_count"), PromQl.metricNames(
                "sum by (job) (rate(expiry_checks_failures_total[10m])) / on (job) group_left "
                        + "sum by (job) (rate(expiry_checks_seconds_count[10m])) > 0.05"));
    }

    @Test
    void keywordsOffsetsAndSubqueriesAreNotNames() {
        assertEquals(Set.of("expiry_messages_total", "expiry_checks_seconds_count", "outbox_backlog"),
                PromQl.metricNames("""
                        sum(increase(expiry_messages_total{result="sent"}[10m] offset 1m)) > 0
                        unless sum(increase(expiry_checks_seconds_count[11m])) > 0
                        and bool max_over_time(outbox_backlog[15m:1m]) > 1e3"""));
    }

    @Test
    void stringsWithBracesDoNotHideNames() {
        assertEquals(Set.of("alipay_calls_seconds_count"), PromQl.metricNames(
                "label_replace(alipay_calls_seconds_count{outcome!~\"a|b\"}, \"x\", \"$1\", \"outcome\", \"(.*)}\")"));
    }

    @Test
    void aGrafanaLabelValuesQueryNamesOnlyItsSelector() {
        assertEquals(Set.of("orders_placed_total"),
                PromQl.metricNamesOfVariableQuery("label_values(orders_placed_total{namespace=~\"$namespace\"}, job)"));
    }
}
