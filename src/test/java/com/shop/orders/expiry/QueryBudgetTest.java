package com.shop.orders.expiry;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.shop.orders.payment.PaymentOffered;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Two instances' budgets of the same orders on the test's Redis (first query 1 s after creation, then every 2 s):
 * each remembers when an order's next query is due, and what one of them takes the other learns from Redis.
 */
@QuarkusTest
class QueryBudgetTest {

    @Inject
    ReactiveRedisDataSource redis;

    @Inject
    ExpiryConfig config;

    @Test
    void aQueryIsTakenOnceAndTheNextIsKnownWithoutAskingRedis() {
        QueryBudget one = new QueryBudget(redis, config);
        QueryBudget other = new QueryBudget(redis, config);
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String order = offered(one, created);
        Instant first = created.plusSeconds(1);

        assertFalse(one.mayBeDue(order, created, first.minusMillis(1)), "not old enough");
        assertTrue(one.mayBeDue(order, created, first));
        assertTrue(claim(one, order, created, first));
        assertFalse(one.mayBeDue(order, created, first.plusMillis(1999)), "remembered: the next is 2 s later");

        // The other instance knows nothing yet: Redis tells it the query was taken, and it remembers that.
        assertTrue(other.mayBeDue(order, created, first.plusSeconds(1)));
        assertFalse(claim(other, order, created, first.plusSeconds(1)));
        assertFalse(other.mayBeDue(order, created, first.plusSeconds(1)));

        // Due again: the first to claim takes it, the other learns from Redis that it is gone.
        assertTrue(other.mayBeDue(order, created, first.plusSeconds(2)));
        assertTrue(claim(other, order, created, first.plusSeconds(2)));
        assertTrue(one.mayBeDue(order, created, first.plusSeconds(2)), "a lower bound: it may be due");
        assertFalse(claim(one, order, created, first.plusSeconds(2)));
        assertFalse(one.mayBeDue(order, created, first.plusSeconds(3)));
        assertTrue(one.mayBeDue(order, created, first.plusSeconds(4)));
    }

    @Test
    void anOrderWithoutAQrCodeIsLookedAtAgainAnIntervalLaterAndAtOnceWhenItGetsOne() {
        QueryBudget budget = new QueryBudget(redis, config);
        Instant created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String order = "budget-" + UUID.randomUUID();
        Instant old = created.plusSeconds(1);

        assertFalse(claim(budget, order, created, old));
        assertFalse(budget.mayBeDue(order, created, old.plusMillis(1999)));
        offered(budget, created, order);
        assertTrue(budget.mayBeDue(order, created, old.plusSeconds(1)));
        assertTrue(claim(budget, order, created, old.plusSeconds(1)));
    }

    private String offered(QueryBudget budget, Instant created) {
        return offered(budget, created, "budget-" + UUID.randomUUID());
    }

    private String offered(QueryBudget budget, Instant created, String order) {
        budget.onOffered(new PaymentOffered(1, order, created, created.plus(Duration.ofMinutes(5))));
        await().atMost(Duration.ofSeconds(10)).until(() -> redis.key().exists(QueryBudget.key(order))
                .await().atMost(Duration.ofSeconds(5)));
        return order;
    }

    private static boolean claim(QueryBudget budget, String order, Instant created, Instant now) {
        return budget.claim(order, created, now).await().atMost(Duration.ofSeconds(5));
    }
}
