package com.shop.orders.expiry;

import java.time.Instant;

import org.apache.rocketmq.client.producer.LocalTransactionState;

/**
 * What a check-back answers about an order's expiry message, and why. Pure: the caller says what is known.
 * <ul>
 * <li>ROLLBACK once the order is decided (paid or closed): the message is not needed any more;</li>
 * <li>COMMIT once the deadline has passed: the consumer closes the order;</li>
 * <li>COMMIT one check before the broker would drop the message: the consumer sees the deadline ahead and
 * sends a new message;</li>
 * <li>UNKNOW otherwise: the broker checks again. Never ROLLBACK for lack of knowledge, which would lose
 * the expiry.</li>
 * </ul>
 */
enum ExpiryDecision {

    DECIDED(LocalTransactionState.ROLLBACK_MESSAGE, "order paid or closed"),
    DEADLINE_PASSED(LocalTransactionState.COMMIT_MESSAGE, "pay deadline passed"),
    CHECK_LIMIT(LocalTransactionState.COMMIT_MESSAGE, "broker's check limit near, renewed by the consumer"),
    WAITING(LocalTransactionState.UNKNOW, "pay deadline ahead");

    private final LocalTransactionState answer;
    private final String reason;

    ExpiryDecision(LocalTransactionState answer, String reason) {
        this.answer = answer;
        this.reason = reason;
    }

    LocalTransactionState answer() {
        return answer;
    }

    String reason() {
        return reason;
    }

    static ExpiryDecision decide(boolean decided, Instant deadline, Instant now, int checkTimes, int brokerCheckMax) {
        if (decided) {
            return DECIDED;
        }
        if (!now.isBefore(deadline)) {
            return DEADLINE_PASSED;
        }
        return whileWaiting(checkTimes, brokerCheckMax);
    }

    /** The decision while the deadline is ahead, or when nothing could be learnt (an error). */
    static ExpiryDecision whileWaiting(int checkTimes, int brokerCheckMax) {
        return checkTimes >= brokerCheckMax - 1 ? CHECK_LIMIT : WAITING;
    }

    static LocalTransactionState answer(boolean decided, Instant deadline, Instant now, int checkTimes,
            int brokerCheckMax) {
        return decide(decided, deadline, now, checkTimes, brokerCheckMax).answer;
    }

    static LocalTransactionState waiting(int checkTimes, int brokerCheckMax) {
        return whileWaiting(checkTimes, brokerCheckMax).answer;
    }
}
