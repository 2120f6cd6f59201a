package com.shop.orders.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;

/**
 * Phase 3: a flash sale as shops run it. First a warm-up of sales like the measured ones (not in the figures), so
 * that the phase gives the same figures alone as after the other phases. Each round, a new SKU with limited stock
 * and a limit of one per member, far more members than stock at 64 connections, each member trying a few times; its
 * sale rate (orders it sold over the time between the first and the last of them, from SQL) against the database's
 * hot-row limit (mysqlslap on one SKU), interleaved. A round that does not sell out within its length is reported as
 * such. Winners, members over the limit and oversell are checked by SQL. The losers' answers are measured on a SKU
 * that has sold out, when every answer is a 409: with the limit, without it (the sold-out path alone), and on an
 * instance that asks the database for every one of them (shop.order.sold-out-memory=0, the path before the sold-out
 * memory), with MariaDB's transactions per loser.
 */
final class FlashSalePhase {

    static final String NAME = "3 flash sale";

    /** Top-up runs that may still be needed to sell the last round's SKU out before the losers are measured. */
    private static final int SELL_OUT_ATTEMPTS = 5;
    private static final int PER_MEMBER = 1;
    private static final String SOLD_OUT_ANSWERS = "orders_sold_out_answers_total";

    private final Bench bench;
    private final Clearance clearance;
    private final Wrk wrk;

    FlashSalePhase(Bench bench) {
        this.bench = bench;
        this.clearance = new Clearance(bench);
        this.wrk = bench.wrk().with(Tokens.write(bench.stack().tokens(), bench.size().flashMembers(),
                bench.runDir().resolve("flash-tokens.csv")), bench.service().apiUrl());
    }

    /**
     * A losers' run: its answers, MariaDB's transactions per loser and the share of 409s answered before the REST
     * layer (SoldOutFastPath).
     */
    private record Losers(Wrk.Run run, double transactionsPerLoser, double beforeRestLayer) {
        Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>(run.toMap());
            m.put("requestsPerSecond", Stats.round(run.requests() / run.seconds(), 1));
            m.put("transactionsPerLoser", Stats.round(transactionsPerLoser, 3));
            m.put("answeredBeforeRestLayer", Stats.round(beforeRestLayer, 3));
            return m;
        }
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
        long overLimit = 0;
        long wrongWinners = 0;
        long lastSku = 0;
        double guess = 1000;
        warmUp();
        for (int round = 1; round <= size.rounds(); round++) {
            PlacementLimit.Run limit = bench.limit().hot(connections, (long) (guess * size.roundLength().toMillis() / 1000.0));
            guess = limit.perSecond();
            long sku = limitedSku();
            lastSku = sku;
            Wrk.Run run = wrk.place(connections, size.roundLength(), sku, sku);
            OrderFacts.StockRow stock = bench.facts().stock(sku);
            long sold = stock.pendingQuantity() + stock.paidQuantity();
            long over = Math.max(0, sold - size.flashStock());
            long membersOver = bench.facts().membersOver(sku, PER_MEMBER);
            oversold += over;
            overLimit += membersOver;
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
            r.put("perMemberLimit", PER_MEMBER);
            r.put("membersOverLimit", membersOver);
            r.put("requestsPerSecond", Stats.round(run.requests() / run.seconds(), 1));
            r.put("soldOut", sold >= size.flashStock());
            r.put("wrk", run.toMap());
            rounds.add(r);
            if (sold < size.flashStock()) {
                bench.results().info(NAME, "round " + round, String.format("did not sell out in %d s: %d of %d sold "
                        + "(its sale rate is over the units it sold)", size.roundLength().toSeconds(), sold,
                        size.flashStock()));
            }
            Progress.say("  round %d: hot-row limit %.0f orders/s, sale %.0f orders/s (%d sold in %.2f s, ratio %.2f), %d answers 409",
                    round, limit.perSecond(), saleRate, sold, span, saleRate / limit.perSecond(), run.status(409));
        }
        sellOut(wrk, lastSku);
        wrongWinners += winnersOtherThanStock(lastSku);
        Losers limited = losers(wrk, bench.service(), lastSku, "with the limit");
        long unlimitedSku = bench.catalog().create(1, size.flashStock()).from();
        wrk.place(connections, size.roundLength(), unlimitedSku, unlimitedSku);
        sellOut(wrk, unlimitedSku);
        Losers unlimited = losers(wrk, bench.service(), unlimitedSku, "without the limit");
        Losers everyLoserAsked = losersWithoutMemory();
        Wrk.Run losers = limited.run();
        long notRefused = losers.unexpected(409);
        double medianRatio = Stats.median(ratios);
        double speedUp = (losers.requests() / losers.seconds())
                / (everyLoserAsked.run().requests() / everyLoserAsked.run().seconds());
        figures.put("connections", connections);
        figures.put("members", size.flashMembers());
        figures.put("rounds", rounds);
        figures.put("medianRatio", Stats.round(medianRatio, 3));
        figures.put("oversold", oversold);
        figures.put("membersOverLimit", overLimit);
        figures.put("losersAfterSellOut", limited.toMap());
        figures.put("losersWithoutLimit", unlimited.toMap());
        figures.put("losersEachAskingTheDatabase", everyLoserAsked.toMap());
        bench.results().info("1 limit", "hot row, " + connections + " conns, median",
                String.format("%.0f orders/s", Stats.median(limits)));
        bench.results().verdict(NAME, "median ratio to hot-row limit, " + connections + " conns",
                String.format("%.2f (%.0f/s)", medianRatio, Stats.median(sales)), ">= 0.3", medianRatio >= 0.3);
        bench.results().verdict(NAME, "oversold units (SQL)", Long.toString(oversold), "0", oversold == 0);
        bench.results().verdict(NAME, "winners = stock, " + PER_MEMBER + " unit each; members over the limit",
                String.format("%d rounds of %d units, %d members over", size.rounds(), size.flashStock(), overLimit),
                "0 over", overLimit == 0 && wrongWinners == 0);
        bench.results().verdict(NAME, "losers answered 409, p99", String.format("%d of %d, p50 %.1f ms, p99 %.1f ms",
                losers.status(409), losers.requests(), losers.p50(), losers.p99()), "all, p99 <= 20 ms",
                notRefused == 0 && losers.p99() <= 20);
        bench.results().verdict(NAME, "losers' requests/s against every loser asking the database",
                String.format("%.1fx (%.0f/s against %.0f/s; %.3f against %.3f transactions per loser)", speedUp,
                        losers.requests() / losers.seconds(), everyLoserAsked.run().requests()
                                / everyLoserAsked.run().seconds(), limited.transactionsPerLoser(),
                        everyLoserAsked.transactionsPerLoser()), ">= 5x", speedUp >= 5);
        bench.results().info(NAME, "losers without the limit (the sold-out path alone)", String.format(
                "%.0f/s, p50 %.1f ms, p99 %.1f ms, %.3f transactions per loser", unlimited.run().requests()
                        / unlimited.run().seconds(), unlimited.run().p50(), unlimited.run().p99(),
                unlimited.transactionsPerLoser()));
        bench.results().info(NAME, "losers answered before the REST layer (SoldOutFastPath)", String.format(
                "%.2f with the limit, %.2f without it", limited.beforeRestLayer(), unlimited.beforeRestLayer()));
        bench.results().chart(Svg.bars("Flash sale: sale rate against the hot-row limit, by round", "orders/s",
                java.util.stream.IntStream.rangeClosed(1, size.rounds()).mapToObj(i -> "round " + i).toList(),
                List.of(new Svg.Series("hot-row limit (mysqlslap)", limits), new Svg.Series("service sale rate", sales))));
        bench.results().chart(Svg.bars("Flash sale losers (all 409, after sell-out)", "ms",
                List.of("p50", "p90", "p99", "max"), List.of(
                        new Svg.Series("limit 1 per member", List.of(losers.p50(), losers.p90(), losers.p99(), losers.max())),
                        new Svg.Series("no limit", List.of(unlimited.run().p50(), unlimited.run().p90(),
                                unlimited.run().p99(), unlimited.run().max())),
                        new Svg.Series("every loser asks the database", List.of(everyLoserAsked.run().p50(),
                                everyLoserAsked.run().p90(), everyLoserAsked.run().p99(),
                                everyLoserAsked.run().max())))));
    }

    private long limitedSku() {
        long sku = bench.catalog().create(1, bench.size().flashStock()).from();
        bench.catalog().limit(sku, PER_MEMBER);
        return sku;
    }

    /** Winners of a sold-out limited SKU other than its stock, or any of them with more than its limit. */
    private long winnersOtherThanStock(long sku) {
        OrderFacts.StockRow stock = bench.facts().stock(sku);
        long winners = stock.pendingQuantity() + stock.paidQuantity();
        if (winners != bench.size().flashStock()) {
            bench.results().problem("flash sale SKU " + sku + ": " + winners + " units sold of " + bench.size().flashStock());
        }
        return Math.abs(winners - bench.size().flashStock()) + bench.facts().membersOver(sku, PER_MEMBER);
    }

    /** The losers' answers on a sold-out SKU, every one expected to be a 409. */
    private Losers losers(Wrk load, ServiceProcess instance, long sku, String what) {
        long transactionsBefore = bench.facts().transactionsEnded();
        double earlyBefore = instance.metric(SOLD_OUT_ANSWERS, "layer", "http");
        Wrk.Run run = load.place(bench.size().flashConnections(), bench.size().roundLength(), sku, sku);
        double perLoser = (bench.facts().transactionsEnded() - transactionsBefore) / (double) Math.max(1, run.status(409));
        double early = (instance.metric(SOLD_OUT_ANSWERS, "layer", "http") - earlyBefore) / Math.max(1, run.status(409));
        long notRefused = run.unexpected(409);
        if (notRefused > 0) {
            bench.results().problem("flash sale losers " + what + ": " + notRefused + " answers other than 409 "
                    + run.statuses() + ", socket errors " + run.socketErrors());
        }
        Progress.say("  losers %s: %.0f requests/s, p99 %.1f ms, %.3f transactions per loser, %.2f answered before "
                + "the REST layer", what, run.requests() / run.seconds(), run.p99(), perLoser, early);
        return new Losers(run, perLoser, early);
    }

    /**
     * The same losers on an instance of this build that remembers no sold-out SKU: each of them is a transaction on
     * the hot row, as before the sold-out memory. Warmed up like the main instance first, then a limited SKU of its
     * own is sold out (the warm-up's clearance cancels every pending order, the earlier sales' too).
     */
    private Losers losersWithoutMemory() {
        ServiceProcess instance = bench.stack().addReplica("flash-no-memory", bench.service().artifact(),
                Map.of("shop.order.sold-out-memory", "0"));
        instance.start();
        try {
            Wrk load = wrk.with(bench.runDir().resolve("flash-tokens.csv"), instance.apiUrl());
            long end = System.nanoTime() + bench.size().placementWarmUp().toNanos();
            do {
                long sku = bench.catalog().create(1, bench.size().flashStock()).from();
                load.place(bench.size().flashConnections(), bench.size().roundLength(), sku, sku);
            } while (System.nanoTime() < end);
            clearance.cancelPending();
            long sku = limitedSku();
            load.place(bench.size().flashConnections(), bench.size().roundLength(), sku, sku);
            sellOut(load, sku);
            return losers(load, instance, sku, "each asking the database");
        } finally {
            instance.close();
        }
    }

    /**
     * Sales like the measured rounds, each on a new SKU, for the placement warm-up's length: compiled code for both
     * the winners' path and the losers'. Their orders are cancelled before the first round.
     */
    private void warmUp() {
        BenchSize size = bench.size();
        Progress.say("  warm-up: %d s of flash sales (not in the figures)", size.placementWarmUp().toSeconds());
        long end = System.nanoTime() + size.placementWarmUp().toNanos();
        do {
            long sku = bench.catalog().create(1, size.flashStock()).from();
            wrk.place(size.flashConnections(), size.roundLength(), sku, sku);
        } while (System.nanoTime() < end);
        clearance.cancelPending();
    }

    /** Places on the SKU until it has nothing left, so that every answer of the losers' run can be a 409. */
    private void sellOut(Wrk load, long sku) {
        BenchSize size = bench.size();
        for (int attempt = 1; attempt <= SELL_OUT_ATTEMPTS && soldUnits(sku) < size.flashStock(); attempt++) {
            Progress.say("  SKU %d not sold out yet (%d of %d): %d s more of the sale before the losers' run", sku,
                    soldUnits(sku), size.flashStock(), size.roundLength().toSeconds());
            load.place(size.flashConnections(), size.roundLength(), sku, sku);
        }
        if (soldUnits(sku) < size.flashStock()) {
            bench.results().problem("flash sale SKU " + sku + " not sold out after " + SELL_OUT_ATTEMPTS
                    + " more runs: " + soldUnits(sku) + " of " + size.flashStock());
        }
    }

    private long soldUnits(long sku) {
        OrderFacts.StockRow stock = bench.facts().stock(sku);
        return stock.pendingQuantity() + stock.paidQuantity();
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
