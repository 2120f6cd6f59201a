package com.shop.orders.testsupport;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The clocks of a run: the service's pay window, the broker's transactional check schedule and the service's
 * sweep and Alipay query budget. {@link #serviceSettings()} gives what the services are started with,
 * the broker is configured from the same record (first check, interval, maximum).
 *
 * @param payTimeout          the service's pay window (shop.order.pay-timeout)
 * @param brokerFirstCheck    the broker's transactionTimeOut: first check-back after a half message
 * @param brokerCheckInterval the broker's transactionCheckInterval
 * @param brokerCheckMax      the broker's transactionCheckMax, and the service's shop.expiry.broker-check-max
 * @param sweepEvery          shop.expiry.sweep.every
 * @param sweepGrace          shop.expiry.sweep.grace: how long past its deadline the sweep leaves an order to the broker
 * @param queryFirstAfter     shop.expiry.query.first-after
 * @param queryEvery          shop.expiry.query.every
 */
public record Timings(Duration payTimeout, Duration brokerFirstCheck, Duration brokerCheckInterval, int brokerCheckMax,
                      Duration sweepEvery, Duration sweepGrace, Duration queryFirstAfter, Duration queryEvery) {

    /** Seconds-scale, like the test profile: 6 s to pay, checks every second, the sweep 8 s behind. */
    public static Timings ci() {
        return new Timings(Duration.ofSeconds(6), Duration.ofSeconds(1), Duration.ofSeconds(1), 15,
                Duration.ofSeconds(1), Duration.ofSeconds(8), Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    /**
     * Production-like broker schedule (first check after 6 s, then every 5 s) with a 60 s pay window; callers
     * usually set their own pay timeout with {@link #withPayTimeout}. The check maximum covers the pay window
     * with margin, the sweep runs every 15 s one minute behind the deadline.
     */
    public static Timings bench() {
        return new Timings(Duration.ofSeconds(60), Duration.ofSeconds(6), Duration.ofSeconds(5), 30,
                Duration.ofSeconds(15), Duration.ofSeconds(60), Duration.ofSeconds(20), Duration.ofSeconds(20));
    }

    public Timings withPayTimeout(Duration d) {
        return new Timings(d, brokerFirstCheck, brokerCheckInterval, brokerCheckMax, sweepEvery, sweepGrace,
                queryFirstAfter, queryEvery);
    }

    public Timings withBrokerCheckInterval(Duration d) {
        return new Timings(payTimeout, brokerFirstCheck, d, brokerCheckMax, sweepEvery, sweepGrace, queryFirstAfter,
                queryEvery);
    }

    public Timings withBrokerFirstCheck(Duration d) {
        return new Timings(payTimeout, d, brokerCheckInterval, brokerCheckMax, sweepEvery, sweepGrace, queryFirstAfter,
                queryEvery);
    }

    public Timings withBrokerCheckMax(int max) {
        return new Timings(payTimeout, brokerFirstCheck, brokerCheckInterval, max, sweepEvery, sweepGrace,
                queryFirstAfter, queryEvery);
    }

    public Timings withSweep(Duration every, Duration grace) {
        return new Timings(payTimeout, brokerFirstCheck, brokerCheckInterval, brokerCheckMax, every, grace,
                queryFirstAfter, queryEvery);
    }

    public Timings withQuery(Duration firstAfter, Duration every) {
        return new Timings(payTimeout, brokerFirstCheck, brokerCheckInterval, brokerCheckMax, sweepEvery, sweepGrace,
                firstAfter, every);
    }

    /** While the broker is up: an unpaid order is committed at the first check past its deadline. */
    public Duration brokerBound() {
        return brokerCheckInterval;
    }

    /** Without the broker: the sweep takes an order {@code grace} after its deadline, at its next run. */
    public Duration sweepBound() {
        return sweepGrace.plus(sweepEvery);
    }

    /** The service settings (shop.*) these timings stand for, as given to every replica. */
    public Map<String, String> serviceSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("shop.order.pay-timeout", ms(payTimeout));
        s.put("shop.expiry.broker-check-max", Integer.toString(brokerCheckMax));
        s.put("shop.expiry.sweep.every", ms(sweepEvery));
        s.put("shop.expiry.sweep.grace", ms(sweepGrace));
        s.put("shop.expiry.query.first-after", ms(queryFirstAfter));
        s.put("shop.expiry.query.every", ms(queryEvery));
        if (sweepEvery.compareTo(Duration.ofSeconds(5)) <= 0) {
            // seconds-scale runs: retries and re-sends on the same scale, so faults heal within the bounds
            s.put("shop.expiry.sweep.retry-backoff", "1s");
            s.put("shop.expiry.sweep.retry-backoff-max", "4s");
            s.put("shop.expiry.sweep.resend-after", "3s");
            s.put("shop.expiry.consumer.retry-delay-level", "1");
            s.put("shop.events.retry-backoff", "500ms");
            s.put("shop.events.retry-backoff-max", "2s");
            s.put("shop.refunds.settle-every", "1s");
            s.put("shop.refunds.retry-backoff", "1s");
            s.put("shop.refunds.retry-backoff-max", "4s");
        }
        s.put("shop.rocketmq.poll-name-server-interval", "1s");
        return s;
    }

    private static String ms(Duration d) {
        return d.toMillis() + "ms";
    }
}
