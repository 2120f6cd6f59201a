package com.shop.orders.expiry;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "expiry")
public interface ExpiryConfig {

    /** Topic of the payment-timeout transactional messages. */
    @WithDefault("order-timeout")
    String topic();

    @WithDefault("order-timeout-producer")
    String producerGroup();

    @WithDefault("order-timeout-consumer")
    String consumerGroup();

    /** Threads answering the broker's check-backs (RocketMQ's default is one). */
    @WithDefault("16")
    int checkThreads();

    @WithDefault("10000")
    int checkQueue();

    /** Longest a check-back may take; past it the answer is UNKNOW and the broker asks again. */
    @WithDefault("5s")
    Duration checkTimeout();

    /**
     * The broker's transactionCheckMax. After that many checks the broker silently drops the
     * message, so the check commits one check before: the consumer then re-arms the watch if
     * the deadline is still ahead.
     */
    @WithDefault("15")
    int brokerCheckMax();

    /** The first Alipay query for an order with a QR code, counted from the order's creation. */
    @WithDefault("60s")
    Duration firstQueryAfter();

    /** Minimum time between two Alipay queries for the same order. */
    @WithDefault("60s")
    Duration queryEvery();

    /** Most Alipay queries the check-back makes for one order. */
    @WithDefault("10")
    int maxQueries();

    /** How long watch state is kept in Redis after the deadline. */
    @WithDefault("1H")
    Duration stateTtlAfterDeadline();

    Consumer consumer();

    Sweep sweep();

    interface Consumer {
        @WithDefault("4")
        int threads();

        /** Longest one message may take to handle before it is retried. */
        @WithDefault("30s")
        Duration handleTimeout();

        /** RocketMQ delay level of a retry (the broker's messageDelayLevel: 1=1s, 2=5s, 3=10s, ...). */
        @WithDefault("3")
        int retryDelayLevel();
    }

    interface Sweep {
        /** Fallback for when the broker is unreachable; the check-back is the prompt path. */
        @WithDefault("10M")
        String every();

        /** An order is swept only this long after its deadline, leaving the watch time to act. */
        @WithDefault("1M")
        Duration grace();

        @WithDefault("100")
        int batch();
    }
}
