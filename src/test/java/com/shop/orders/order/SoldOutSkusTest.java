package com.shop.orders.order;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.shop.orders.inventory.StockRestocked;
import com.shop.orders.testsupport.MovableClock;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The sold-out memory's bound: past it, one placement asks the database again while the others keep the memory's
 * answer, so that a sold-out SKU costs one transaction per bound instead of one per request in flight.
 */
class SoldOutSkusTest {

    private static final Duration BOUND = Duration.ofMillis(200);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T12:00:00Z"));
    private final SoldOutSkus soldOut = new SoldOutSkus(new SmallRyeConfigBuilder()
            .withConverter(Duration.class, 100, new DurationConverter())
            .withMapping(OrderConfig.class)
            .withSources(new PropertiesConfigSource(Map.of("shop.order.sold-out-memory", BOUND.toMillis() + "ms"), "test", 300))
            .build().getConfigMapping(OrderConfig.class), registry, clock);

    @Test
    void pastTheBoundOnePlacementAsksTheDatabaseAndTheOthersKeepTheMemorysAnswer() {
        soldOut.refusedByDatabase(7);
        assertEquals(7L, soldOut.firstSoldOut(List.of(3L, 7L)));

        clock.advance(BOUND);
        assertNull(soldOut.firstSoldOut(List.of(7L)), "the first placement past the bound goes to the database");
        for (int inFlight = 0; inFlight < 50; inFlight++) {
            assertEquals(7L, soldOut.firstSoldOut(List.of(7L)), "the others meanwhile");
        }
        soldOut.refusedByDatabase(7);
        assertEquals(7L, soldOut.firstSoldOut(List.of(7L)));
        assertEquals(52, registry.counter("orders.sold.out.answers", "from", "memory", "layer", "rest").count());
        assertEquals(2, registry.counter("orders.sold.out.answers", "from", "database", "layer", "rest").count());
    }

    @Test
    void theAnswerBeforeTheRestLayerHoldsWithinTheBoundAndLeavesTheRecheckToThePlacement() {
        soldOut.refusedByDatabase(6);
        assertEquals(6L, soldOut.soldOutWithinBound(List.of(2L, 6L)));

        clock.advance(BOUND);
        assertNull(soldOut.soldOutWithinBound(List.of(6L)), "past the bound");
        assertNull(soldOut.soldOutWithinBound(List.of(6L)), "past the bound, asked again");
        assertNull(soldOut.firstSoldOut(List.of(6L)), "the placement still re-checks with the database");
        assertEquals(6L, soldOut.soldOutWithinBound(List.of(6L)), "while it does, the memory answers again");
        assertEquals(2, registry.counter("orders.sold.out.answers", "from", "memory", "layer", "http").count());
    }

    @Test
    void aPlacementThatGotStockClearsTheMemoryAtOnce() {
        soldOut.refusedByDatabase(8);
        clock.advance(BOUND);
        assertNull(soldOut.firstSoldOut(List.of(8L)));
        // The re-check's order was placed: the SKU had stock again (restocked on an instance that did not announce it).
        soldOut.placed(List.of(8L));
        assertNull(soldOut.firstSoldOut(List.of(8L)));
    }

    @Test
    void withinTheBoundTheMemoryAnswersAndAClockSetBackAsksTheDatabase() {
        soldOut.refusedByDatabase(5);
        clock.advance(BOUND.minusMillis(1));
        assertEquals(5L, soldOut.soldOutWithinBound(List.of(5L)), "a millisecond before the bound");
        assertEquals(5L, soldOut.firstSoldOut(List.of(5L)));

        soldOut.refusedByDatabase(4);
        clock.advance(Duration.ofSeconds(-30));
        assertNull(soldOut.soldOutWithinBound(List.of(4L)), "the clock was set back: not trusted as within the bound");
        assertNull(soldOut.firstSoldOut(List.of(4L)), "and the placement asks the database");
    }

    @Test
    void aReleaseDuringTheRecheckClearsTheMemory() {
        soldOut.refusedByDatabase(9);
        clock.advance(BOUND);
        assertNull(soldOut.firstSoldOut(List.of(9L)));
        soldOut.onRestock(new StockRestocked(9));
        assertNull(soldOut.firstSoldOut(List.of(9L)));
    }
}
