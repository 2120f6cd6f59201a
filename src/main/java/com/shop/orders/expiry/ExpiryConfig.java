package com.shop.orders.expiry;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Expiry: an order not paid by its pay deadline is closed. The prompt path is one RocketMQ transactional
 * ("expiry") message per order whose check-backs answer COMMIT once the deadline has passed; the sweep is
 * the fallback.
 */
@ConfigMapping(prefix = "shop.expiry")
public interface ExpiryConfig {

    /** Topic of the expiry messages. */
    @WithDefault("order-expiry")
    String topic();

    @WithDefault("order-expiry-producer")
    String producerGroup();

    @WithDefault("order-expiry-consumer")
    String consumerGroup();

    /** Threads answering the broker's check-backs (RocketMQ's default is one). */
    @WithDefault("4")
    int checkThreads();

    /** Check-backs waiting for a thread; the broker sends a whole pass in a burst. */
    @WithDefault("50000")
    int checkQueue();

    /**
     * The broker's {@code transactionCheckMax}. Past that many checks the broker silently drops a message,
     * so the check-back commits one check before; the consumer then sends a new message if the deadline is
     * still ahead (pay windows longer than the broker watches one message).
     */
    @WithDefault("15")
    int brokerCheckMax();

    /** Longest a check-back may wait for the database, for a message that does not carry its deadline. */
    @WithDefault("3s")
    Duration checkTimeout();

    /** Orders whose expiry the check-back remembers as decided (paid or closed), most recent first. */
    @WithDefault("200000")
    int decidedOrdersRemembered();

    Query query();

    Consumer consumer();

    Sweep sweep();

    /** Asking Alipay about orders with a QR code, so that a payment whose notify was lost is found. */
    interface Query {
        /** The first query for an order, counted from its creation. */
        @WithDefault("60s")
        Duration firstAfter();

        /** Least time between two queries of the same order. */
        @WithDefault("60s")
        Duration every();

        /** Most queries for one order. */
        @WithDefault("10")
        int max();

        /** Queries in flight at once; the others wait their turn, in the order their check-backs came. */
        @WithDefault("16")
        int concurrency();

        /**
         * Orders waiting for a query at most; a check-back that finds the line full leaves its order to a later
         * check (counted as {@code busy}).
         */
        @WithDefault("20000")
        int waitingMax();

        /**
         * Orders whose next due query each instance remembers, so that a check-back of an order not yet due reads
         * nothing from Redis; a forgotten one is read again.
         */
        @WithDefault("200000")
        int nextDueRemembered();

        /** How long the query state of an order is kept in Redis after its deadline. */
        @WithDefault("1H")
        Duration stateTtlAfterDeadline();
    }

    interface Consumer {
        @WithDefault("8")
        int threads();

        /** Longest one message may take to handle before it is retried. */
        @WithDefault("30s")
        Duration handleTimeout();

        /** RocketMQ delay level of a retry (the broker's messageDelayLevel: 1=1s, 2=5s, 3=10s, ...). */
        @WithDefault("3")
        int retryDelayLevel();
    }

    /**
     * The fallback for orders the expiry messages missed (broker down, a crash between commit and send).
     * An order without its message is closed at most {@code grace + every} after its deadline.
     */
    interface Sweep {
        @WithDefault("15s")
        Duration every();

        /** An order is swept only this long after its deadline, leaving the expiry message time to act. */
        @WithDefault("1M")
        Duration grace();

        /** Orders one claim takes; a pass claims until a claim comes back short. */
        @WithDefault("200")
        int batch();

        /** Most claims in one pass, so that one pass ends even while orders keep expiring. */
        @WithDefault("20")
        int maxClaims();

        /** Orders closed at once within a claim. */
        @WithDefault("8")
        int concurrency();

        /** Pause after a failed close of an order; it doubles with each further failure. */
        @WithDefault("30s")
        Duration retryBackoff();

        @WithDefault("30M")
        Duration retryBackoffMax();

        /** An order whose expiry message was not confirmed sent this long after placement gets it sent again. */
        @WithDefault("20s")
        Duration resendAfter();
    }
}
