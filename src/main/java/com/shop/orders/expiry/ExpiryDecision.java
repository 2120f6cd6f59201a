package com.shop.orders.expiry;

import java.time.Instant;

import org.apache.rocketmq.client.producer.LocalTransactionState;

/**
 * What a check-back answers about an order's expiry message. Pure: the caller says what is known.
 * <ul>
 * <li>ROLLBACK once the order is decided (paid or closed): the message is not needed any more;</li>
 * <li>COMMIT once the deadline has passed: the consumer closes the order;</li>
 * <li>COMMIT one check before the broker would drop the message: the consumer sees the deadline ahead and
 * sends a new message;</li>
 * <li>UNKNOW otherwise: the broker checks again. Never ROLLBACK for lack of knowledge, which would lose
 * the expiry.</li>
 * </ul>
 */
final class ExpiryDecision {

    private ExpiryDecision() {
    }

    static LocalTransactionState answer(boolean decided, Instant deadline, Instant now, int checkTimes,
            int brokerCheckMax) {
        if (decided) {
            return LocalTransactionState.ROLLBACK_MESSAGE;
        }
        if (!now.isBefore(deadline)) {
            return LocalTransactionState.COMMIT_MESSAGE;
        }
        return waiting(checkTimes, brokerCheckMax);
    }

    /** The answer while the deadline is ahead, or when nothing could be learnt (an error). */
    static LocalTransactionState waiting(int checkTimes, int brokerCheckMax) {
        return checkTimes >= brokerCheckMax - 1 ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.UNKNOW;
    }
}
