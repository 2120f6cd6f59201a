package com.shop.orders.expiry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

class QueryRuleTest {

    private static final Instant CREATED = Instant.parse("2026-11-29T12:00:00Z");
    private final QueryRule rule = new QueryRule(Duration.ofSeconds(60), Duration.ofSeconds(30), 3);

    @Test
    void noQueryBeforeTheFirstIsDue() {
        assertFalse(rule.isOldEnough(CREATED, CREATED.plusSeconds(59)));
        assertFalse(rule.isDue(CREATED, 0, null, CREATED.plusSeconds(59)));
        assertTrue(rule.isOldEnough(CREATED, CREATED.plusSeconds(60)));
        assertTrue(rule.isDue(CREATED, 0, null, CREATED.plusSeconds(60)));
    }

    @Test
    void queriesAreSpacedByTheInterval() {
        Instant last = CREATED.plusSeconds(61);
        assertFalse(rule.isDue(CREATED, 1, last, last.plusSeconds(29)));
        assertTrue(rule.isDue(CREATED, 1, last, last.plusSeconds(30)));
    }

    @Test
    void theBudgetEnds() {
        Instant last = CREATED.plusSeconds(120);
        assertTrue(rule.isDue(CREATED, 2, last, last.plusSeconds(31)));
        assertFalse(rule.isDue(CREATED, 3, last, last.plusSeconds(3600)));
        assertEquals(QueryRule.NEVER, rule.nextDue(CREATED, 3, last));
    }

    @Test
    void theNextQueryIsDueAtTheLaterOfTheFirstAndTheIntervalAfterTheLast() {
        assertEquals(CREATED.plusSeconds(60), rule.nextDue(CREATED, 0, null));
        // Taken early (by an instance with another setting): the first is still not before its time.
        assertEquals(CREATED.plusSeconds(60), rule.nextDue(CREATED, 1, CREATED.plusSeconds(10)));
        assertEquals(CREATED.plusSeconds(91), rule.nextDue(CREATED, 1, CREATED.plusSeconds(61)));
    }
}
