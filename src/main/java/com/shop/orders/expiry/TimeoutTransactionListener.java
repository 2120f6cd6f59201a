package com.shop.orders.expiry;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageConst;
import org.apache.rocketmq.common.message.MessageExt;
import org.jboss.logging.Logger;

import com.shop.orders.common.MutinyBridge;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * RocketMQ's side of the watch. Runs on the producer's threads (the sender's for the local
 * transaction, the sized check pool for check-backs) and bridges to the reactive pipelines.
 * An error never answers ROLLBACK: that would lose the timeout.
 */
@ApplicationScoped
public class TimeoutTransactionListener implements TransactionListener {

    private static final Logger LOG = Logger.getLogger(TimeoutTransactionListener.class);

    private final TimeoutCheck check;
    private final WatchStore watches;
    private final ExpiryConfig config;
    private final MeterRegistry registry;

    public TimeoutTransactionListener(TimeoutCheck check, WatchStore watches, ExpiryConfig config,
            MeterRegistry registry) {
        this.check = check;
        this.watches = watches;
        this.config = config;
        this.registry = registry;
    }

    /** The order is already committed; record the watch and let the check-backs decide. */
    @Override
    public LocalTransactionState executeLocalTransaction(Message message, Object deadline) {
        String orderNo = orderNo(message);
        try {
            MutinyBridge.await(() -> watches.recordArmed(orderNo, (Instant) deadline), config.checkTimeout());
        } catch (Throwable e) {
            // The record is a budget, not the truth: the check-backs work without it.
            LOG.warnf("Could not record the watch of %s: %s", orderNo, e.getMessage());
        }
        return LocalTransactionState.UNKNOW;
    }

    @Override
    public LocalTransactionState checkLocalTransaction(MessageExt message) {
        String orderNo = orderNo(message);
        int checkTimes = checkTimes(message);
        LocalTransactionState answer;
        long start = System.nanoTime();
        try {
            answer = MutinyBridge.await(() -> check.decide(orderNo, checkTimes), config.checkTimeout());
        } catch (Throwable e) {
            LOG.warnf("Check-back for %s failed (%s); asking again later", orderNo, e.toString());
            answer = check.whileWaiting(checkTimes);
        }
        Timer.builder("expiry.checks").description("Check-backs by answer, and how long each took")
                .tag("answer", answer.name()).register(registry)
                .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        return answer;
    }

    static String orderNo(Message message) {
        return new String(message.getBody(), StandardCharsets.UTF_8);
    }

    private static int checkTimes(MessageExt message) {
        String value = message.getProperty(MessageConst.PROPERTY_TRANSACTION_CHECK_TIMES);
        try {
            return value == null ? 1 : Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
