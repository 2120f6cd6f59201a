package com.shop.orders.inventory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Which buckets of a SKU this instance recently found without the units an order needed, so that placements start
 * at a bucket that still has some: at a sale's end most buckets are empty, and each failed try costs a transaction.
 * Only a hint for choosing: the database decides every reservation, and an order that finds every bucket marked
 * takes its units from all buckets at once ({@link StockLocks#ALL_BUCKETS}), which also renews the marks.
 */
@ApplicationScoped
public class EmptyBuckets {

    /** Bit k set: bucket k looked empty at {@code atNanos}. */
    private record Marks(long mask, long atNanos) {
    }

    private final Map<Long, Marks> marks = new ConcurrentHashMap<>();
    private final long memoryNanos;

    public EmptyBuckets(InventoryConfig config) {
        this.memoryNanos = config.emptyBucketMemory().toNanos();
    }

    /**
     * The bucket a placement should try, spreading concurrent placements over the buckets not marked empty, or
     * {@link StockLocks#ALL_BUCKETS} when every bucket is marked.
     */
    public int choose(long skuId, int buckets) {
        long empty = current(skuId);
        int start = ThreadLocalRandom.current().nextInt(buckets);
        for (int i = 0; i < buckets; i++) {
            int bucket = (start + i) % buckets;
            if ((empty & (1L << bucket)) == 0) {
                return bucket;
            }
        }
        return StockLocks.ALL_BUCKETS;
    }

    /** The lowest bucket above {@code bucket} not marked empty, or -1. */
    int nextAbove(long skuId, int bucket, int buckets) {
        long empty = current(skuId);
        for (int next = bucket + 1; next < buckets; next++) {
            if ((empty & (1L << next)) == 0) {
                return next;
            }
        }
        return -1;
    }

    void markEmpty(long skuId, int bucket) {
        long now = System.nanoTime();
        marks.compute(skuId, (id, old) -> new Marks((old == null || expired(old, now) ? 0 : old.mask) | (1L << bucket), now));
    }

    /** All buckets were just read: these are the ones without a free unit. */
    void seen(long skuId, long emptyMask) {
        marks.put(skuId, new Marks(emptyMask, System.nanoTime()));
    }

    /** Units may have come back (a release or a restock, here or announced by another instance). */
    public void forget(long skuId) {
        marks.remove(skuId);
    }

    void onRestock(@Observes StockRestocked restocked) {
        forget(restocked.skuId());
    }

    private long current(long skuId) {
        Marks m = marks.get(skuId);
        return m == null || expired(m, System.nanoTime()) ? 0 : m.mask;
    }

    private boolean expired(Marks m, long now) {
        return now - m.atNanos >= memoryNanos;
    }
}
