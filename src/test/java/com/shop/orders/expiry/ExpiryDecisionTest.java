package com.shop.orders.expiry;

import static org.apache.rocketmq.client.producer.LocalTransactionState.COMMIT_MESSAGE;
import static org.apache.rocketmq.client.producer.LocalTransactionState.ROLLBACK_MESSAGE;
import static org.apache.rocketmq.client.producer.LocalTransactionState.UNKNOW;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class ExpiryDecisionTest {

    private static final Instant DEADLINE = Instant.parse("2026-11-29T12:05:00Z");
    private static final int BROKER_CHECK_MAX = 15;

    @Test
    void decidedOrderIsRolledBackWhateverTheTime() {
        assertEquals(ROLLBACK_MESSAGE, answer(true, DEADLINE.minusSeconds(60), 1));
        assertEquals(ROLLBACK_MESSAGE, answer(true, DEADLINE.plusSeconds(60), 1));
        assertEquals(ROLLBACK_MESSAGE, answer(true, DEADLINE.minusSeconds(60), BROKER_CHECK_MAX - 1));
    }

    @Test
    void pendingOrderWaitsUntilItsDeadlineThenCommits() {
        assertEquals(UNKNOW, answer(false, DEADLINE.minusMillis(1), 3));
        assertEquals(COMMIT_MESSAGE, answer(false, DEADLINE, 3));
        assertEquals(COMMIT_MESSAGE, answer(false, DEADLINE.plusSeconds(5), 3));
    }

    @Test
    void commitsOneCheckBeforeTheBrokerWouldDropTheMessage() {
        assertEquals(UNKNOW, answer(false, DEADLINE.minusSeconds(600), BROKER_CHECK_MAX - 2));
        assertEquals(COMMIT_MESSAGE, answer(false, DEADLINE.minusSeconds(600), BROKER_CHECK_MAX - 1));
        assertEquals(COMMIT_MESSAGE, answer(false, DEADLINE.minusSeconds(600), BROKER_CHECK_MAX));
    }

    @Test
    void anErrorNeverRollsBack() {
        assertEquals(UNKNOW, ExpiryDecision.waiting(1, BROKER_CHECK_MAX));
        assertEquals(COMMIT_MESSAGE, ExpiryDecision.waiting(BROKER_CHECK_MAX - 1, BROKER_CHECK_MAX));
    }

    private static org.apache.rocketmq.client.producer.LocalTransactionState answer(boolean decided, Instant now,
            int checkTimes) {
        return ExpiryDecision.answer(decided, DEADLINE, now, checkTimes, BROKER_CHECK_MAX);
    }
}
