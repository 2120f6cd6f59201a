package com.shop.orders.order;

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
 * which bounds how long a lost announcement can keep a SKU falsely sold out. Only ever says "sold out" for a SKU
 * the database refused within that bound, so it can refuse an order the database would have taken (within the
 * bound), never take one: the database stays the only judge of winners.
 */
@ApplicationScoped
public class SoldOutSkus {

    private final Map<Long, Long> soldOutAtNanos = new ConcurrentHashMap<>();
    private final long memoryNanos;
    private final Counter fromMemory;
    private final Counter fromDatabase;

    public SoldOutSkus(OrderConfig config, MeterRegistry registry) {
        this.memoryNanos = config.soldOutMemory().toNanos();
        this.fromMemory = Counter.builder("orders.sold.out.answers").tag("from", "memory")
                .description("Placements answered insufficient stock, from memory or by the database")
                .register(registry);
        this.fromDatabase = Counter.builder("orders.sold.out.answers").tag("from", "database")
                .description("Placements answered insufficient stock, from memory or by the database")
                .register(registry);
    }

    /** The first of these SKUs known to be sold out, or null. Counts the answer it allows. */
    Long firstSoldOut(List<Long> skuIds) {
        long now = System.nanoTime();
        for (long skuId : skuIds) {
            Long at = soldOutAtNanos.get(skuId);
            if (at != null && now - at < memoryNanos) {
                fromMemory.increment();
                return skuId;
            }
            if (at != null) {
                soldOutAtNanos.remove(skuId, at);
            }
        }
        return null;
    }

    /** The database just refused an order for want of this SKU's stock. */
    void refusedByDatabase(long skuId) {
        fromDatabase.increment();
        if (memoryNanos > 0) {
            soldOutAtNanos.put(skuId, System.nanoTime());
        }
    }

    void onTransition(@Observes OrderTransition transition) {
        if (transition.releasedSkuIds() != null) {
            transition.releasedSkuIds().forEach(soldOutAtNanos::remove);
        }
    }

    void onRestock(@Observes StockRestocked restocked) {
        soldOutAtNanos.remove(restocked.skuId());
    }
}
