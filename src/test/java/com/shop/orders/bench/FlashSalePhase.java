package com.shop.orders.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.shop.orders.harness.ServiceProcess;

/**
 * Phase 3: a flash sale as shops run it. First a warm-up of sales like the measured ones (not in the figures), so
 * that the phase gives the same figures alone as after the other phases. Each round, the same sale twice, on a new
 * SKU with limited stock and a limit of one per member each: one SKU with its stock on its row (1 bucket), one with
 * its stock laid out in {@value #BUCKETS} buckets through the admin API, in alternating order from round to round;
 * far more members than stock at 64 connections, each member trying a few times. A sale's rate is the orders it sold
 * over the time between the first and the last of them (from SQL). Beside them in the same round: the database's
 * hot-row limit (mysqlslap on one SKU row), its limit for the bucketed reservation (mysqlslap on {@value #BUCKETS}
 * bucket rows), and the service's placement rate on spread SKUs at the same connections (wrk), so that the bucketed
 * sale is measured against what the service does without a hot row. A round that does not sell out within its length
 * is reported as such. Winners, members over the limit, oversell and the per-bucket stock are checked by SQL. The
 * losers' answers are measured on each round's SKUs once sold out, when every answer is a 409; after the rounds,
 * without the limit (the sold-out path alone), and on an instance that asks the database for every one of them
 * (shop.order.sold-out-memory=0, the path before the sold-out memory), with MariaDB's transactions per loser.
 */
final class FlashSalePhase {

    static final String NAME = "3 flash sale";

    /** Buckets of the bucketed sale's SKU. */
    static final int BUCKETS = 16;
    /** Top-up runs that may still be needed to sell a SKU out before its losers are measured. */
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

    /**
     * One measured sale on a new SKU in {@code buckets} buckets: what it sold (pending and paid units, from SQL) over
     * how long, the wrk run, what broke (units over the stock, members over the limit, bucket rows that do not match
     * the orders), and its losers once it sold out.
     */
    private record Sale(int buckets, long sku, Wrk.Run run, long sold, double span, long oversold, long membersOver,
                        long bucketViolations, long wrongWinners, Losers losers) {
        double rate() {
            return sold > 1 && span > 0 ? (sold - 1) / span : Double.NaN;
        }

        Map<String, Object> toMap(int stock) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("sku", sku);
            r.put("buckets", buckets);
            r.put("sold", sold);
            r.put("stock", stock);
            r.put("saleSeconds", Stats.round(span, 3));
            r.put("saleOrdersPerSecond", Stats.round(rate(), 1));
            r.put("oversold", oversold);
            r.put("membersOverLimit", membersOver);
            r.put("bucketViolations", bucketViolations);
            r.put("requestsPerSecond", Stats.round(run.requests() / run.seconds(), 1));
            r.put("soldOut", sold >= stock);
            r.put("wrk", run.toMap());
            if (losers != null) {
                r.put("losers", losers.toMap());
            }
            return r;
        }
    }

    void run() {
        BenchSize size = bench.size();
        int connections = size.flashConnections();
        Map<String, Object> figures = bench.results().phase(NAME);
        Catalog.Range spreadSkus = bench.catalog().create(size.spreadSkus(), 100_000_000);
        List<Double> limits = new ArrayList<>();
        List<Double> bucketedLimits = new ArrayList<>();
        List<Double> sales = new ArrayList<>();
        List<Double> bucketedSales = new ArrayList<>();
        List<Double> spreadRates = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> bucketedToSpread = new ArrayList<>();
        List<Double> bucketedToLimit = new ArrayList<>();
        List<Double> bucketedLosersP99 = new ArrayList<>();
        List<Map<String, Object>> rounds = new ArrayList<>();
        long oversold = 0;
        long overLimit = 0;
        long wrongWinners = 0;
        long bucketViolations = 0;
        long bucketedLosersNot409 = 0;
        long bucketedLosersRequests = 0;
        Losers limited = null;
        Losers lastBucketedLosers = null;
        double guess = 1000;
        double bucketedGuess = 1000;
        warmUp(spreadSkus);
        for (int round = 1; round <= size.rounds(); round++) {
            if (round > 1) {
                clearance.cancelPending();
            }
            // Which goes first alternates, so that neither measures always on the warmer or the more loaded service.
            boolean singleFirst = round % 2 == 1;
            PlacementLimit.Run limit;
            PlacementLimit.Run bucketedLimit;
            if (singleFirst) {
                limit = bench.limit().hot(connections, transactions(guess));
                bucketedLimit = bench.limit().bucketed(BUCKETS, connections, transactions(bucketedGuess));
            } else {
                bucketedLimit = bench.limit().bucketed(BUCKETS, connections, transactions(bucketedGuess));
                limit = bench.limit().hot(connections, transactions(guess));
            }
            guess = limit.perSecond();
            bucketedGuess = bucketedLimit.perSecond();
            long singleSku = limitedSku(1);
            long bucketedSku = limitedSku(BUCKETS);
            Sale single;
            Sale bucketed;
            if (singleFirst) {
                single = sale(singleSku, 1);
                bucketed = sale(bucketedSku, BUCKETS);
            } else {
                bucketed = sale(bucketedSku, BUCKETS);
                single = sale(singleSku, 1);
            }
            Wrk.Run spread = bench.wrk().place(connections, size.roundLength(), spreadSkus.from(), spreadSkus.to());
            long notPlaced = spread.unexpected(201);
            if (notPlaced > 0) {
                bench.results().problem("flash sale round " + round + ", spread SKUs: " + notPlaced
                        + " answers other than 201 " + spread.statuses() + ", socket errors " + spread.socketErrors());
            }
            for (Sale sale : List.of(single, bucketed)) {
                oversold += sale.oversold();
                overLimit += sale.membersOver();
                bucketViolations += sale.bucketViolations();
                wrongWinners += sale.wrongWinners();
            }
            limited = single.losers();
            lastBucketedLosers = bucketed.losers();
            bucketedLosersNot409 += bucketed.losers().run().unexpected(409);
            bucketedLosersRequests += bucketed.losers().run().requests();
            bucketedLosersP99.add(bucketed.losers().run().p99());
            double spreadRate = spread.perSecond(201);
            limits.add(limit.perSecond());
            bucketedLimits.add(bucketedLimit.perSecond());
            sales.add(single.rate());
            bucketedSales.add(bucketed.rate());
            spreadRates.add(spreadRate);
            ratios.add(single.rate() / limit.perSecond());
            bucketedToSpread.add(bucketed.rate() / spreadRate);
            bucketedToLimit.add(bucketed.rate() / limit.perSecond());
            Map<String, Object> r = new LinkedHashMap<>();
            // The 1-bucket sale's figures at the top level, as before buckets (PhaseIsolation reads them).
            r.put("first", singleFirst ? "1 bucket" : BUCKETS + " buckets");
            r.put("limitOrdersPerSecond", Stats.round(limit.perSecond(), 1));
            r.put("bucketedLimitOrdersPerSecond", Stats.round(bucketedLimit.perSecond(), 1));
            r.put("sold", single.sold());
            r.put("stock", size.flashStock());
            r.put("saleSeconds", Stats.round(single.span(), 3));
            r.put("saleOrdersPerSecond", Stats.round(single.rate(), 1));
            r.put("ratio", Stats.round(single.rate() / limit.perSecond(), 3));
            r.put("oversold", single.oversold() + bucketed.oversold());
            r.put("perMemberLimit", PER_MEMBER);
            r.put("membersOverLimit", single.membersOver() + bucketed.membersOver());
            r.put("bucketedSaleOrdersPerSecond", Stats.round(bucketed.rate(), 1));
            r.put("spreadOrdersPerSecond", Stats.round(spreadRate, 1));
            r.put("ratioBucketedToSpread", Stats.round(bucketed.rate() / spreadRate, 3));
            r.put("ratioBucketedToHotRowLimit", Stats.round(bucketed.rate() / limit.perSecond(), 3));
            r.put("ratioBucketedToSingle", Stats.round(bucketed.rate() / single.rate(), 3));
            r.put("singleBucket", single.toMap(size.flashStock()));
            r.put("bucketed", bucketed.toMap(size.flashStock()));
            r.put("spread", spread.toMap());
            rounds.add(r);
            for (Sale sale : List.of(single, bucketed)) {
                if (sale.sold() < size.flashStock()) {
                    bench.results().info(NAME, "round " + round + ", " + sale.buckets() + " bucket(s)", String.format(
                            "did not sell out in %d s: %d of %d sold (its sale rate is over the units it sold)",
                            size.roundLength().toSeconds(), sale.sold(), size.flashStock()));
                }
            }
            Progress.say("  round %d (%s first): hot-row limit %.0f/s, %d-bucket limit %.0f/s; sale 1 bucket %.0f/s "
                            + "(%d in %.2f s), %d buckets %.0f/s (%d in %.2f s), spread %.0f/s; %d buckets/spread %.2f, "
                            + "/hot-row limit %.2f; losers p99 %.1f ms (1), %.1f ms (%d)",
                    round, singleFirst ? "1 bucket" : BUCKETS + " buckets", limit.perSecond(), BUCKETS,
                    bucketedLimit.perSecond(), single.rate(), single.sold(), single.span(), BUCKETS, bucketed.rate(),
                    bucketed.sold(), bucketed.span(), spreadRate, BUCKETS, bucketed.rate() / spreadRate,
                    bucketed.rate() / limit.perSecond(), single.losers().run().p99(), bucketed.losers().run().p99(),
                    BUCKETS);
        }
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
        figures.put("buckets", BUCKETS);
        figures.put("rounds", rounds);
        figures.put("medianRatio", Stats.round(medianRatio, 3));
        figures.put("medianSaleOrdersPerSecond", Stats.round(Stats.median(sales), 1));
        figures.put("medianBucketedSaleOrdersPerSecond", Stats.round(Stats.median(bucketedSales), 1));
        figures.put("medianSpreadOrdersPerSecond", Stats.round(Stats.median(spreadRates), 1));
        figures.put("medianHotRowLimitOrdersPerSecond", Stats.round(Stats.median(limits), 1));
        figures.put("medianBucketedLimitOrdersPerSecond", Stats.round(Stats.median(bucketedLimits), 1));
        figures.put("medianRatioBucketedToSpread", Stats.round(Stats.median(bucketedToSpread), 3));
        figures.put("medianRatioBucketedToHotRowLimit", Stats.round(Stats.median(bucketedToLimit), 3));
        figures.put("medianBucketedLosersP99Ms", Stats.round(Stats.median(bucketedLosersP99), 2));
        figures.put("oversold", oversold);
        figures.put("membersOverLimit", overLimit);
        figures.put("wrongWinners", wrongWinners);
        figures.put("bucketViolations", bucketViolations);
        figures.put("losersAfterSellOut", limited.toMap());
        figures.put("bucketedLosersAfterSellOut", lastBucketedLosers.toMap());
        figures.put("losersWithoutLimit", unlimited.toMap());
        figures.put("losersEachAskingTheDatabase", everyLoserAsked.toMap());
        bench.results().info("1 limit", "hot row, " + connections + " conns, median",
                String.format("%.0f orders/s", Stats.median(limits)));
        bench.results().info("1 limit", BUCKETS + " buckets of one SKU, " + connections + " conns, median",
                String.format("%.0f orders/s", Stats.median(bucketedLimits)));
        bench.results().verdict(NAME, "median ratio to hot-row limit, " + connections + " conns",
                String.format("%.2f (%.0f/s)", medianRatio, Stats.median(sales)), ">= 0.3", medianRatio >= 0.3);
        bench.results().info(NAME, BUCKETS + " buckets: median winners' rate to spread SKUs, " + connections + " conns",
                String.format("%.2f (%.0f/s against %.0f/s)", Stats.median(bucketedToSpread),
                        Stats.median(bucketedSales), Stats.median(spreadRates)));
        bench.results().info(NAME, BUCKETS + " buckets: median ratio to hot-row limit", String.format(
                "%.2f (%.0f/s against %.0f/s; %d-bucket limit %.0f/s)", Stats.median(bucketedToLimit),
                Stats.median(bucketedSales), Stats.median(limits), BUCKETS, Stats.median(bucketedLimits)));
        bench.results().verdict(NAME, "oversold units (SQL)", Long.toString(oversold), "0", oversold == 0);
        bench.results().verdict(NAME, "winners = stock, " + PER_MEMBER + " unit each; members over the limit",
                String.format("%d rounds of 2 sales of %d units (1 and %d buckets), %d members over", size.rounds(),
                        size.flashStock(), BUCKETS, overLimit), "0 over", overLimit == 0 && wrongWinners == 0);
        bench.results().verdict(NAME, "stock per bucket matches the orders (SQL)", bucketViolations + " violations",
                "0", bucketViolations == 0);
        bench.results().verdict(NAME, "losers answered 409, p99", String.format("%d of %d, p50 %.1f ms, p99 %.1f ms",
                losers.status(409), losers.requests(), losers.p50(), losers.p99()), "all, p99 <= 20 ms",
                notRefused == 0 && losers.p99() <= 20);
        bench.results().verdict(NAME, BUCKETS + " buckets: losers answered 409, median p99", String.format(
                "%d of %d not 409, p99 %.1f ms", bucketedLosersNot409, bucketedLosersRequests,
                Stats.median(bucketedLosersP99)), "all, p99 <= 20 ms",
                bucketedLosersNot409 == 0 && Stats.median(bucketedLosersP99) <= 20);
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
                "%.2f with the limit, %.2f with it in %d buckets, %.2f without it", limited.beforeRestLayer(),
                lastBucketedLosers.beforeRestLayer(), BUCKETS, unlimited.beforeRestLayer()));
        List<String> roundNames = java.util.stream.IntStream.rangeClosed(1, size.rounds()).mapToObj(i -> "round " + i)
                .toList();
        bench.results().chart(Svg.bars("Flash sale: sale rates against the limits and spread placement, by round",
                "orders/s", roundNames, List.of(new Svg.Series("hot-row limit (mysqlslap)", limits),
                        new Svg.Series(BUCKETS + "-bucket limit (mysqlslap)", bucketedLimits),
                        new Svg.Series("sale, 1 bucket", sales), new Svg.Series("sale, " + BUCKETS + " buckets",
                                bucketedSales), new Svg.Series("spread SKUs (wrk)", spreadRates))));
        Wrk.Run b = lastBucketedLosers.run();
        bench.results().chart(Svg.bars("Flash sale losers (all 409, after sell-out)", "ms",
                List.of("p50", "p90", "p99", "max"), List.of(
                        new Svg.Series("limit 1 per member", List.of(losers.p50(), losers.p90(), losers.p99(), losers.max())),
                        new Svg.Series("limit 1 per member, " + BUCKETS + " buckets", List.of(b.p50(), b.p90(), b.p99(),
                                b.max())),
                        new Svg.Series("no limit", List.of(unlimited.run().p50(), unlimited.run().p90(),
                                unlimited.run().p99(), unlimited.run().max())),
                        new Svg.Series("every loser asks the database", List.of(everyLoserAsked.run().p50(),
                                everyLoserAsked.run().p90(), everyLoserAsked.run().p99(),
                                everyLoserAsked.run().max())))));
    }

    /** mysqlslap transactions for about a round's length at the last measured rate. */
    private long transactions(double perSecond) {
        return (long) (perSecond * bench.size().roundLength().toMillis() / 1000.0);
    }

    /**
     * The sale on a new SKU: a round's length of load, its figures and checks from SQL; then the SKU sold out (placing
     * more if needed), its losers measured, its winners and buckets checked again, before its orders can expire.
     */
    private Sale sale(long sku, int buckets) {
        BenchSize size = bench.size();
        Wrk.Run run = wrk.place(size.flashConnections(), size.roundLength(), sku, sku);
        OrderFacts.StockRow stock = bench.facts().stock(sku);
        long sold = stock.pendingQuantity() + stock.paidQuantity();
        checkStock(stock, run, sold);
        long violations = checkBuckets(sku);
        double span = bench.facts().placementSpan(sku);
        long membersOver = bench.facts().membersOver(sku, PER_MEMBER);
        sellOut(wrk, sku);
        Losers losers = losers(wrk, bench.service(), sku, buckets == 1 ? "with the limit"
                : "with the limit, " + buckets + " buckets");
        long wrongWinners = winnersOtherThanStock(sku);
        violations += checkBuckets(sku);
        return new Sale(buckets, sku, run, sold, span, Math.max(0, sold - size.flashStock()), membersOver, violations,
                wrongWinners, losers);
    }

    /** The per-bucket invariant on the SKU, each violation a problem (a few of them); returns how many. */
    private long checkBuckets(long sku) {
        List<String> violations = bench.facts().bucketViolations(sku);
        violations.stream().limit(5).forEach(v -> bench.results().problem("flash sale: " + v));
        if (violations.size() > 5) {
            bench.results().problem("flash sale SKU " + sku + ": " + (violations.size() - 5) + " more bucket violations");
        }
        return violations.size();
    }

    /** A new SKU of the flash sale's stock, limited to one per member, its stock in {@code buckets} buckets. */
    private long limitedSku(int buckets) {
        long sku = bench.catalog().create(1, bench.size().flashStock()).from();
        // The limit first (straight into the row, as the limit API would), then the layout through the API.
        bench.catalog().limit(sku, PER_MEMBER);
        if (buckets > 1) {
            bench.catalog().buckets(sku, buckets);
        }
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
            long sku = limitedSku(1);
            load.place(bench.size().flashConnections(), bench.size().roundLength(), sku, sku);
            sellOut(load, sku);
            return losers(load, instance, sku, "each asking the database");
        } finally {
            instance.close();
        }
    }

    /**
     * Sales like the measured rounds, each on a new SKU, in 1 and in {@value #BUCKETS} buckets, and placement on the
     * spread SKUs, for the placement warm-up's length: compiled code for the winners' paths and the losers'. Their
     * orders are cancelled before the first round.
     */
    private void warmUp(Catalog.Range spreadSkus) {
        BenchSize size = bench.size();
        Progress.say("  warm-up: %d s of flash sales in 1 and %d buckets, and spread placement (not in the figures)",
                size.placementWarmUp().toSeconds(), BUCKETS);
        long end = System.nanoTime() + size.placementWarmUp().toNanos();
        do {
            for (int buckets : List.of(1, BUCKETS)) {
                long sku = limitedSku(buckets);
                wrk.place(size.flashConnections(), size.roundLength(), sku, sku);
            }
            bench.wrk().place(size.flashConnections(), size.roundLength(), spreadSkus.from(), spreadSkus.to());
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
