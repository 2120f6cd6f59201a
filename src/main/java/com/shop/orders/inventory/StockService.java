package com.shop.orders.inventory;

import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Moves reserved stock for whole orders (release when closed, deduct when paid) and returns sold units (restock).
 * Must run inside the caller's database transaction, so that a failing line rolls back the lines before it. Each unit
 * goes back to where it was reserved: the buckets its item names while the SKU's layout is the one it was placed
 * under; else bucket 0, where laying the buckets out again moved every pending hold; else the SKU's row, which holds
 * the stock of a SKU without buckets.
 *
 * <p>Lock order, the one placement keeps ({@link StockLocks}): bucket rows first (SKU id order, a line's buckets
 * ascending), then the caller's own rows ({@code callersRows}: the member's purchase allowances), then SKU rows (SKU id
 * order). A close or a payment that locked a SKU row or an allowance before a bucket would deadlock with a placement
 * holding that bucket and waiting for the same row. Only a layout changed since placement (an admin action) sends a
 * unit to the other kind of row, out of this order: InnoDB then picks a victim, whose transaction is rolled back
 * whole and run again by its caller.
 */
@ApplicationScoped
public class StockService {

    private final SkuRepository skus;

    public StockService(SkuRepository skus) {
        this.skus = skus;
    }

    /** Gives a closed order's units back; {@code callersRows} runs between the buckets and the SKU rows. */
    public Uni<Void> releaseAll(List<HeldStock> held, Supplier<Uni<Void>> callersRows) {
        return moveAll(SkuRepository.Move.RELEASE, held, callersRows);
    }

    /** Takes a paid order's units off the stock on hand; {@code callersRows} runs between the buckets and the SKU rows. */
    public Uni<Void> deductAll(List<HeldStock> held, Supplier<Uni<Void>> callersRows) {
        return moveAll(SkuRepository.Move.DEDUCT, held, callersRows);
    }

    /**
     * Returns sold units to stock (spread over the buckets of a bucketed SKU); {@code callersRows} runs between the
     * buckets and the SKU rows. The caller announces {@link StockRestocked} after its commit.
     */
    public Uni<Void> restockAll(List<StockLine> lines, Supplier<Uni<Void>> callersRows) {
        Set<Long> inBuckets = new HashSet<>();
        // The layout is read without a lock: a SKU without buckets must not have its row locked before callersRows.
        return forEach(lines, StockLine::skuId, line -> skus.layoutOf(line.skuId())
                .chain(layout -> layout == null ? Uni.createFrom().item(false)
                        : skus.restockInBuckets(line.skuId(), line.quantity()))
                .invoke(done -> {
                    if (done) {
                        inBuckets.add(line.skuId());
                    }
                }))
                .chain(callersRows::get)
                .chain(() -> forEach(lines.stream().filter(line -> !inBuckets.contains(line.skuId())).toList(),
                        StockLine::skuId, line -> skus.restockOnSkuRow(line.skuId(), line.quantity())
                                // laid out in buckets since this transaction's snapshot
                                .chain(done -> done ? Uni.createFrom().item(true)
                                        : skus.restockInBuckets(line.skuId(), line.quantity()))
                                .invoke(done -> requireMoved(done, "restock", line.skuId(), line.quantity()))));
    }

    private Uni<Void> moveAll(SkuRepository.Move move, List<HeldStock> held, Supplier<Uni<Void>> callersRows) {
        List<HeldStock> inBuckets = held.stream().filter(HeldStock::inBuckets).toList();
        List<HeldStock> onSkuRows = held.stream().filter(line -> !line.inBuckets()).toList();
        return forEach(inBuckets, HeldStock::skuId, line -> move(move, line))
                .chain(callersRows::get)
                .chain(() -> forEach(onSkuRows, HeldStock::skuId, line -> move(move, line)));
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

    private static <T, R> Uni<Void> forEach(List<T> lines, ToLongFunction<T> skuId, Function<T, Uni<R>> step) {
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
