package com.shop.orders.inventory;

import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Moves reserved stock for whole orders (release when closed, deduct when paid). Must run inside the
 * caller's database transaction, so that a failing line rolls back the lines before it. Lines are applied
 * in SKU id order so that two orders touching the same SKUs take the row locks in the same order.
 */
@ApplicationScoped
public class StockService {

    private final SkuRepository skus;

    public StockService(SkuRepository skus) {
        this.skus = skus;
    }

    public Uni<Void> releaseAll(List<StockLine> lines) {
        return forEachLine(lines, line -> skus.release(line.skuId(), line.quantity())
                .invoke(released -> requireMoved(released, "release", line)));
    }

    public Uni<Void> deductAll(List<StockLine> lines) {
        return forEachLine(lines, line -> skus.deduct(line.skuId(), line.quantity())
                .invoke(deducted -> requireMoved(deducted, "deduct", line)));
    }

    /** Returns sold units to stock; the caller announces {@link StockRestocked} after its commit. */
    public Uni<Void> restockAll(List<StockLine> lines) {
        return forEachLine(lines, line -> skus.restock(line.skuId(), line.quantity())
                .invoke(restocked -> requireMoved(restocked, "restock", line)));
    }

    private static Uni<Void> forEachLine(List<StockLine> lines, Function<StockLine, Uni<Boolean>> step) {
        List<StockLine> ordered = lines.stream().sorted(Comparator.comparingLong(StockLine::skuId)).toList();
        // Sequential on purpose: one reactive session runs one statement at a time.
        return Multi.createFrom().iterable(ordered)
                .onItem().transformToUniAndConcatenate(line -> step.apply(line))
                .collect().last()
                .replaceWithVoid();
    }

    /** A reservation that is not there breaks the stock invariant: abort the transaction rather than hide it. */
    private static void requireMoved(boolean moved, String what, StockLine line) {
        if (!moved) {
            throw new IllegalStateException("Cannot " + what + " " + line.quantity() + " of SKU " + line.skuId()
                    + ": not reserved");
        }
    }
}
