package com.shop.orders.inventory;

import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Moves reserved stock for whole orders (release when closed, deduct when paid) and returns sold units (restock).
 * Must run inside the caller's database transaction, so that a failing line rolls back the lines before it. Lines
 * are applied in SKU id order, and a line's buckets in ascending order, so that two orders touching the same SKUs
 * take the row locks in the same order. Each unit goes back to where it was reserved: the buckets its item names
 * while the SKU's layout is the one it was placed under; else bucket 0, where laying the buckets out again moved
 * every pending hold; else the SKU's row, which holds the stock of a SKU without buckets.
 */
@ApplicationScoped
public class StockService {

    private final SkuRepository skus;

    public StockService(SkuRepository skus) {
        this.skus = skus;
    }

    public Uni<Void> releaseAll(List<HeldStock> held) {
        return forEach(held, HeldStock::skuId, line -> move(SkuRepository.Move.RELEASE, line));
    }

    public Uni<Void> deductAll(List<HeldStock> held) {
        return forEach(held, HeldStock::skuId, line -> move(SkuRepository.Move.DEDUCT, line));
    }

    /** Returns sold units to stock; the caller announces {@link StockRestocked} after its commit. */
    public Uni<Void> restockAll(List<StockLine> lines) {
        return forEach(lines, StockLine::skuId, line -> skus.restock(line.skuId(), line.quantity())
                .invoke(restocked -> requireMoved(restocked, "restock", line.skuId(), line.quantity())));
    }

    /**
     * Where it was placed, if the SKU's buckets are still laid out as they were then; else where a new layout put
     * it: bucket 0, or the SKU's row once it has no buckets. The layout is read first, so that a release of an item
     * from an older layout locks only the place its units are now (an update that misses would keep its locks too,
     * against the ascending order every other writer of the buckets keeps).
     */
    private Uni<Boolean> move(SkuRepository.Move move, HeldStock line) {
        Uni<Boolean> moved = line.inBuckets()
                ? skus.layoutOf(line.skuId())
                        .chain(layout -> layout != null && layout == line.layout().intValue()
                                ? skus.moveShares(move, line.skuId(), line.layout(), line.shares())
                                : Uni.createFrom().item(false))
                        .chain(done -> done ? Uni.createFrom().item(true)
                                : skus.moveInBucketZero(move, line.skuId(), line.quantity()))
                        .chain(done -> done ? Uni.createFrom().item(true)
                                : skus.moveOnSkuRow(move, line.skuId(), line.quantity()))
                : skus.moveOnSkuRow(move, line.skuId(), line.quantity())
                        .chain(done -> done ? Uni.createFrom().item(true)
                                : skus.moveInBucketZero(move, line.skuId(), line.quantity()));
        return moved.invoke(done -> requireMoved(done, move.name().toLowerCase(), line.skuId(), line.quantity()));
    }

    private static <T> Uni<Void> forEach(List<T> lines, ToLongFunction<T> skuId, Function<T, Uni<Boolean>> step) {
        List<T> ordered = lines.stream().sorted(Comparator.comparingLong(skuId)).toList();
        // Sequential on purpose: one reactive session runs one statement at a time.
        return Multi.createFrom().iterable(ordered)
                .onItem().transformToUniAndConcatenate(line -> step.apply(line))
                .collect().last()
                .replaceWithVoid();
    }

    /** A reservation that is not there breaks the stock invariant: abort the transaction rather than hide it. */
    private static void requireMoved(boolean moved, String what, long skuId, int quantity) {
        if (!moved) {
            throw new IllegalStateException("Cannot " + what + " " + quantity + " of SKU " + skuId + ": not reserved");
        }
    }
}
