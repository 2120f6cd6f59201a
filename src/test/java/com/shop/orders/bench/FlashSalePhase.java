package com.shop.orders.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase 3: a flash sale. Each round, a new SKU with limited stock and far more buyers than stock at 64 connections;
 * its sale rate (orders it sold over the time between the first and the last of them, from SQL) against the
 * database's hot-row limit (mysqlslap on one SKU), interleaved. Oversell is checked by SQL; the losers' answers are
 * measured once the stock is gone, when every answer is a 409.
 */
final class FlashSalePhase {

    static final String NAME = "3 flash sale";

    private final Bench bench;

    FlashSalePhase(Bench bench) {
        this.bench = bench;
    }

    void run() {
        BenchSize size = bench.size();
        int connections = size.flashConnections();
        Map<String, Object> figures = bench.results().phase(NAME);
        List<Double> limits = new ArrayList<>();
        List<Double> sales = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Map<String, Object>> rounds = new ArrayList<>();
        long oversold = 0;
        long lastSku = 0;
        double guess = 1000;
        for (int round = 1; round <= size.rounds(); round++) {
            PlacementLimit.Run limit = bench.limit().hot(connections, (long) (guess * size.roundLength().toMillis() / 1000.0));
            guess = limit.perSecond();
            long sku = bench.catalog().create(1, size.flashStock()).from();
            lastSku = sku;
            Wrk.Run run = bench.wrk().place(connections, size.roundLength(), sku, sku);
            OrderFacts.StockRow stock = bench.facts().stock(sku);
            long sold = stock.pendingQuantity() + stock.paidQuantity();
            long over = Math.max(0, sold - size.flashStock());
            oversold += over;
            checkStock(stock, run, sold);
            double span = bench.facts().placementSpan(sku);
            double saleRate = sold > 1 && span > 0 ? (sold - 1) / span : Double.NaN;
            limits.add(limit.perSecond());
            sales.add(saleRate);
            ratios.add(saleRate / limit.perSecond());
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("limitOrdersPerSecond", Stats.round(limit.perSecond(), 1));
            r.put("sold", sold);
            r.put("stock", size.flashStock());
            r.put("saleSeconds", Stats.round(span, 3));
            r.put("saleOrdersPerSecond", Stats.round(saleRate, 1));
            r.put("ratio", Stats.round(saleRate / limit.perSecond(), 3));
            r.put("oversold", over);
            r.put("wrk", run.toMap());
            rounds.add(r);
            Progress.say("  round %d: hot-row limit %.0f orders/s, sale %.0f orders/s (%d sold in %.2f s, ratio %.2f), %d answers 409",
                    round, limit.perSecond(), saleRate, sold, span, saleRate / limit.perSecond(), run.status(409));
        }
        Wrk.Run losers = bench.wrk().place(connections, size.roundLength(), lastSku, lastSku);
        long notRefused = losers.unexpected(409);
        if (notRefused > 0) {
            bench.results().problem("flash sale after sell-out: " + notRefused + " answers other than 409 "
                    + losers.statuses() + ", socket errors " + losers.socketErrors());
        }
        double medianRatio = Stats.median(ratios);
        figures.put("connections", connections);
        figures.put("rounds", rounds);
        figures.put("medianRatio", Stats.round(medianRatio, 3));
        figures.put("oversold", oversold);
        figures.put("losersAfterSellOut", losers.toMap());
        bench.results().info("1 limit", "hot row, " + connections + " conns, median",
                String.format("%.0f orders/s", Stats.median(limits)));
        bench.results().verdict(NAME, "median ratio to hot-row limit, " + connections + " conns",
                String.format("%.2f (%.0f/s)", medianRatio, Stats.median(sales)), ">= 0.3", medianRatio >= 0.3);
        bench.results().verdict(NAME, "oversold units (SQL)", Long.toString(oversold), "0", oversold == 0);
        bench.results().verdict(NAME, "losers answered 409", String.format("%d of %d, p99 %.1f ms",
                losers.status(409), losers.requests(), losers.p99()), "all, p99 reported", notRefused == 0);
        bench.results().chart(Svg.bars("Flash sale: sale rate against the hot-row limit, by round", "orders/s",
                java.util.stream.IntStream.rangeClosed(1, size.rounds()).mapToObj(i -> "round " + i).toList(),
                List.of(new Svg.Series("hot-row limit (mysqlslap)", limits), new Svg.Series("service sale rate", sales))));
        bench.results().chart(Svg.bars("Flash sale losers (all 409, after sell-out)", "ms",
                List.of("p50", "p90", "p99", "max"), List.of(new Svg.Series("409 answers",
                        List.of(losers.p50(), losers.p90(), losers.p99(), losers.max())))));
    }

    /** Stock as stored must match the orders: locked = pending quantity, sold off = paid quantity, never more than stock. */
    private void checkStock(OrderFacts.StockRow stock, Wrk.Run run, long sold) {
        int initial = bench.size().flashStock();
        if (sold > initial) {
            bench.results().problem("flash sale SKU " + stock.skuId() + " oversold: " + sold + " of " + initial);
        }
        if (stock.lockStock() != stock.pendingQuantity() || initial - stock.stock() != stock.paidQuantity()) {
            bench.results().problem("flash sale SKU " + stock.skuId() + " stock " + stock + " does not match its orders");
        }
        // wrk does not count answers still in flight when it stops, so it may count fewer 201s, never more.
        if (run.status(201) > sold) {
            bench.results().problem("flash sale SKU " + stock.skuId() + ": " + run.status(201) + " answers 201 but "
                    + sold + " units in orders");
        }
        long unexpected = run.unexpected(201, 409);
        if (unexpected > 0) {
            bench.results().problem("flash sale: " + unexpected + " answers other than 201/409 " + run.statuses()
                    + ", socket errors " + run.socketErrors());
        }
    }
}
