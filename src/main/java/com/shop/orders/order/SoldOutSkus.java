package com.shop.orders.order;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.shop.orders.inventory.StockRestocked;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What placement remembers of SKUs the database found without enough stock, so that a sold-out flash sale's losers
 * are answered from memory instead of each costing a transaction on the SKU's hot row. Forgotten as soon as stock
 * may have come back: an order holding the SKU closed (announced by whichever instance closed it, see
 * {@link OrderTransitions}) or it was restocked here; and in any case after {@code shop.order.sold-out-memory},
 * when one placement asks the database again ({@link #firstSoldOut}). That bounds how long a lost announcement can
 * keep a SKU falsely sold out: the bound plus that one placement. Only ever says "sold out" for a SKU the database
 * refused within about that time, so it can refuse an order the database would have taken (within it), never take
 * one: the database stays the only judge of winners.
 */
@ApplicationScoped
public class SoldOutSkus {

    /** When the database last refused each SKU, in the clock's milliseconds. */
    private final Map<Long, Long> soldOutAt = new ConcurrentHashMap<>();
    private final long memoryMillis;
    private final Clock clock;
    private final Counter fromMemory;
    private final Counter fromMemoryOverHttp;
    private final Counter fromDatabase;

    public SoldOutSkus(OrderConfig config, MeterRegistry registry, Clock clock) {
        this.memoryMillis = config.soldOutMemory().toMillis();
        this.clock = clock;
        this.fromMemory = answers(registry, "memory", "rest");
        this.fromMemoryOverHttp = answers(registry, "memory", "http");
        this.fromDatabase = answers(registry, "database", "rest");
    }

    /**
     * The first of these SKUs known to be sold out, or null. Counts the answer it allows. Once a SKU's bound has
     * passed, one caller (this instance's first) asks the database again, and until its answer renews or clears the
     * memory the others keep the memory's answer: a sold-out SKU costs one transaction per bound, not a burst of one
     * per request in flight, each queueing on the hot row.
     */
    Long firstSoldOut(List<Long> skuIds) {
        long now = clock.millis();
        for (long skuId : skuIds) {
            Long at = soldOutAt.get(skuId);
            if (at == null) {
                continue;
            }
            if (pastTheBound(at, now)) {
                if (soldOutAt.replace(skuId, at, now)) {
                    continue;
                }
                // Another caller is asking the database about it right now, or it was released meanwhile.
                if (soldOutAt.get(skuId) == null) {
                    continue;
                }
            }
            fromMemory.increment();
            return skuId;
        }
        return null;
    }

    /** Whether any SKU is remembered sold out: while none is, no placement can be answered from memory. */
    boolean anyRemembered() {
        return !soldOutAt.isEmpty();
    }

    /**
     * The first of these SKUs remembered sold out within the bound, or null. Unlike {@link #firstSoldOut} it never
     * claims the re-check past the bound: that stays with the placement, which every request it does not answer goes
     * on to. Counts the answer it allows as given before the REST layer ({@link SoldOutFastPath}).
     */
    Long soldOutWithinBound(List<Long> skuIds) {
        long now = clock.millis();
        for (long skuId : skuIds) {
            Long at = soldOutAt.get(skuId);
            if (at != null && !pastTheBound(at, now)) {
                fromMemoryOverHttp.increment();
                return skuId;
            }
        }
        return null;
    }

    /** An order on these SKUs was just placed: they had stock (after a re-check, or restocked elsewhere). */
    void placed(List<Long> skuIds) {
        if (!soldOutAt.isEmpty()) {
            skuIds.forEach(soldOutAt::remove);
        }
    }

    /** The database just refused an order for want of this SKU's stock. */
    void refusedByDatabase(long skuId) {
        fromDatabase.increment();
        if (memoryMillis > 0) {
            soldOutAt.put(skuId, clock.millis());
        }
    }

    void onTransition(@Observes OrderTransition transition) {
        if (transition.releasedSkuIds() != null) {
            transition.releasedSkuIds().forEach(soldOutAt::remove);
        }
    }

    void onRestock(@Observes StockRestocked restocked) {
        soldOutAt.remove(restocked.skuId());
    }

    /** Past the bound, or the clock was set back since: either way the database is asked again. */
    private boolean pastTheBound(long at, long now) {
        return now - at >= memoryMillis || now < at;
    }

    /** Answers by where they came from and the layer that gave them (http: {@link SoldOutFastPath}, rest: placement). */
    private static Counter answers(MeterRegistry registry, String from, String layer) {
        return Counter.builder("orders.sold.out.answers").tag("from", from).tag("layer", layer)
                .description("Placements answered insufficient stock, from memory or by the database")
                .register(registry);
    }
}
