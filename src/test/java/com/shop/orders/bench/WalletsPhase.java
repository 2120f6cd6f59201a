package com.shop.orders.bench;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import com.shop.orders.testsupport.Pause;
import com.shop.orders.testsupport.Timings;

/**
 * Phase 10: the two wallets, Alipay and WeChat Pay, measured alike in interleaved rounds (at the full size a first,
 * shorter round settles the service and is not counted). In each round the wallets take turns batch by batch (Alipay
 * first in odd rounds, WeChat first in even ones); a batch of orders is placed (not measured), asked for the wallet's
 * QR code ({@code POST /api/orders/{id}/payment}: the prepay, Alipay's precreate or WeChat's native order) and then
 * paid by the wallet's notify, signed (and for WeChat encrypted) as the sandbox sends it, at the notify rate (open
 * model, {@link FixedRate}). A batch is small enough that its notifies arrive before its orders' first probe is due
 * (5 s after placement), so that no probe runs in its windows (batchSecondsMax tells whether they did). Measured
 * per wallet: notify to PAID (the notify's answer time: Alipay's "success", WeChat's 204), p50 and p99 of the round's
 * notifies; the service's CPU (/proc) per prepay and per notify, over each window divided by its requests. Then, both wallets at once, orders paid with the notify lost
 * (each wallet's {@code payWithoutNotify}): how long the service's probe took to find each payment, paid_at minus the
 * buyer's pay time, as the watch phase measures Alipay's. Every figure is the median of the counted rounds.
 */
final class WalletsPhase {

    static final String NAME = "10 wallets";
    static final List<String> WALLETS = List.of("alipay", "wechat");
    private static final int PREPAYS_AT_ONCE = 8;
    /** Batches per wallet of the settling round. */
    private static final int SETTLING_BATCHES = 3;

    /** What one wallet measured in one round. */
    private static final class Tally {
        final List<Double> notifyMs = new ArrayList<>();
        final List<Double> foundSeconds = new ArrayList<>();
        /** Each batch's time from its first placement to its last notify's answer. */
        final List<Double> batchSeconds = new ArrayList<>();
        double prepayCpuMs;
        int prepays;
        double notifyCpuMs;
        int notifies;

        double cpuPerPrepay() {
            return prepayCpuMs / Math.max(1, prepays);
        }

        double cpuPerNotify() {
            return notifyCpuMs / Math.max(1, notifies);
        }
    }

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final Bench bench;
    private final WalletPayments payments;

    WalletsPhase(Bench bench) {
        this.bench = bench;
        this.payments = new WalletPayments(bench);
    }

    /** Counted rounds: one at the quick size, the size's rounds otherwise ({@code -Dbench.wallets-rounds}). */
    private int rounds() {
        return Integer.getInteger("bench.wallets-rounds", bench.size().quick() ? 1 : bench.size().rounds());
    }

    /**
     * Orders per batch: placed, prepaid and notified within the 5 s before the first probe is due (a batch of 100
     * took longer than that on a loaded 2-core host); the quick size, which need not measure, keeps its orders well
     * inside its 12 s pay window on a cold service.
     */
    private int batch() {
        return bench.size().quick() ? 30 : 50;
    }

    /** Notify batches per wallet and round: the quick size proves the path with one. */
    private int batches() {
        return bench.size().quick() ? 1 : 6;
    }

    void run() {
        int rate = bench.size().notifyRate();
        int lost = bench.size().quick() ? 5 : (int) Math.round(batch() * batches() * bench.size().watchPayShare());
        Progress.say("  %d rounds: per wallet %d x %d notifies at %d/s, %d paid with the notify lost", rounds(),
                batches(), batch(), rate, lost);
        if (!bench.size().quick()) {
            Progress.say("  settling round (not counted)");
            for (int b = 0; b < SETTLING_BATCHES; b++) {
                WALLETS.forEach(wallet -> batch(wallet, new Tally()));
            }
        }
        Map<String, List<Tally>> byWallet = new LinkedHashMap<>();
        WALLETS.forEach(wallet -> byWallet.put(wallet, new ArrayList<>()));
        for (int round = 1; round <= rounds(); round++) {
            Map<String, Tally> tallies = new LinkedHashMap<>();
            List<String> order = round % 2 == 1 ? WALLETS : List.of(WALLETS.get(1), WALLETS.get(0));
            order.forEach(wallet -> tallies.put(wallet, new Tally()));
            // Batch by batch, the wallets in turn: the host's load drifts over a round, and weighs on both alike.
            for (int b = 0; b < batches(); b++) {
                order.forEach(wallet -> batch(wallet, tallies.get(wallet)));
            }
            lostNotifies(order, lost, tallies);
            for (String wallet : order) {
                Tally t = tallies.get(wallet);
                Progress.say("  round %d %s: notify p50 %.1f ms p99 %.1f ms, CPU ms per prepay %.2f per notify %.2f, "
                                + "lost notify found p50 %.1f s p99 %.1f s; batches took up to %.1f s", round, wallet,
                        Stats.percentile(t.notifyMs, 50), Stats.percentile(t.notifyMs, 99), t.cpuPerPrepay(),
                        t.cpuPerNotify(), Stats.percentile(t.foundSeconds, 50), Stats.percentile(t.foundSeconds, 99),
                        Stats.max(t.batchSeconds));
                byWallet.get(wallet).add(t);
            }
        }
        report(byWallet, rate);
    }

    /** One batch: placed, prepaid (measured: CPU), notified at the rate (measured: answer times, CPU). */
    private void batch(String wallet, Tally tally) {
        long start = System.nanoTime();
        List<OrderFacts.OrderRow> orders = place(batch());
        double before = cpuMs();
        prepay(orders, wallet);
        tally.prepayCpuMs += cpuMs() - before;
        tally.prepays += orders.size();
        List<HttpRequest> notifies = orders.stream().map(order -> payments.notify(wallet, order.orderNo(),
                order.total().toPlainString(), REQUEST_TIMEOUT)).toList();
        before = cpuMs();
        List<FixedRate.Answer> answers = FixedRate.send(notifies, bench.size().notifyRate(),
                WalletPayments.answered(wallet));
        tally.notifyCpuMs += cpuMs() - before;
        tally.notifies += answers.size();
        tally.batchSeconds.add(Stats.round((System.nanoTime() - start) / 1e9, 2));
        answers.forEach(answer -> tally.notifyMs.add(answer.ms()));
        long failed = answers.stream().filter(answer -> !answer.ok()).count();
        if (failed > 0) {
            bench.results().problem("wallets: " + failed + " of " + answers.size() + " " + wallet
                    + " notifies not answered as paid");
        }
    }

    /**
     * Orders of both wallets paid with the notify lost, right after their prepay, each wallet's in turn; waits until
     * the service has found every payment (or the orders' deadline and the probe's bound have passed).
     */
    private void lostNotifies(List<String> wallets, int count, Map<String, Tally> tallies) {
        Map<String, Catalog.Range> skus = new LinkedHashMap<>();
        Map<String, Instant> paidAtWallet = new HashMap<>();
        wallets.forEach(wallet -> skus.put(wallet, bench.catalog().create(10, 10_000_000)));
        // One order of each wallet after the other: their ages, and so when their probes are due, alike. Placed a
        // wallet at a time, the second's orders were paid younger and found a broker check-back later.
        for (int i = 0; i < count; i++) {
            wallets.forEach(wallet -> NotifyPhase.placeOrders(bench, skus.get(wallet), 1));
        }
        wallets.forEach(wallet -> prepay(bench.facts().orders(skus.get(wallet)), wallet));
        Map<String, List<OrderFacts.OrderRow>> orders = new LinkedHashMap<>();
        skus.forEach((wallet, range) -> orders.put(wallet, bench.facts().orders(range)));
        for (int i = 0; i < count; i++) {
            for (String wallet : wallets) {
                if (i < orders.get(wallet).size()) {
                    String orderNo = orders.get(wallet).get(i).orderNo();
                    payments.payWithoutNotify(wallet, orderNo).ifPresent(at -> paidAtWallet.put(orderNo, at));
                }
            }
        }
        Timings timings = bench.stack().timings();
        Instant giveUp = Instant.now().plus(timings.payTimeout()).plus(timings.brokerCheckInterval().multipliedBy(2))
                .plus(timings.brokerFirstCheck()).plusSeconds(10);
        while (skus.values().stream().anyMatch(range -> bench.facts().pending(range) > 0)
                && Instant.now().isBefore(giveUp)) {
            Pause.of(Duration.ofMillis(500));
        }
        skus.forEach((wallet, range) -> {
            long unfound = 0;
            for (OrderFacts.OrderRow order : bench.facts().orders(range)) {
                Instant buyerPaid = paidAtWallet.get(order.orderNo());
                if ("PAID".equals(order.status()) && buyerPaid != null) {
                    tallies.get(wallet).foundSeconds.add(
                            Duration.between(buyerPaid, order.paidAt()).toMillis() / 1000.0);
                } else {
                    unfound++;
                }
            }
            if (unfound > 0) {
                bench.results().problem("wallets: " + unfound + " of " + count + " " + wallet
                        + " payments with the notify lost not found as PAID");
            }
        });
    }

    private List<OrderFacts.OrderRow> place(int count) {
        Catalog.Range skus = bench.catalog().create(10, 10_000_000);
        NotifyPhase.placeOrders(bench, skus, count);
        List<OrderFacts.OrderRow> orders = bench.facts().orders(skus);
        if (orders.size() < count) {
            bench.results().problem("wallets: only " + orders.size() + " of " + count + " orders placed");
        }
        return orders;
    }

    /** Asks the wallet for each order's QR code, as the member who placed it (NotifyPhase's). */
    private void prepay(List<OrderFacts.OrderRow> orders, String wallet) {
        String token = bench.stack().tokens().token(NotifyPhase.MEMBER);
        List<HttpRequest> requests = orders.stream()
                .map(order -> payments.prepay(order.id(), token, wallet, REQUEST_TIMEOUT)).toList();
        long failed = Requests.statuses(requests, PREPAYS_AT_ONCE).stream().filter(status -> status != 200).count();
        if (failed > 0) {
            bench.results().problem("wallets: " + failed + " of " + requests.size() + " " + wallet + " prepays failed");
        }
    }

    private double cpuMs() {
        return CpuMeter.processMs(bench.service().pid());
    }

    private void report(Map<String, List<Tally>> byWallet, int rate) {
        Map<String, Object> wallets = new LinkedHashMap<>();
        Map<String, Double> p50s = new LinkedHashMap<>();
        Map<String, Double> p99s = new LinkedHashMap<>();
        long bound = WatchPhase.bound(bench.stack().timings()).toSeconds();
        byWallet.forEach((wallet, rounds) -> {
            List<Double> notifyP50 = perRound(rounds, t -> Stats.percentile(t.notifyMs, 50));
            List<Double> notifyP99 = perRound(rounds, t -> Stats.percentile(t.notifyMs, 99));
            List<Double> prepayCpu = perRound(rounds, Tally::cpuPerPrepay);
            List<Double> notifyCpu = perRound(rounds, Tally::cpuPerNotify);
            List<Double> foundP50 = perRound(rounds, t -> Stats.percentile(t.foundSeconds, 50));
            List<Double> foundP99 = perRound(rounds, t -> Stats.percentile(t.foundSeconds, 99));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("notifyMs", Map.of("p50", Stats.round(Stats.median(notifyP50), 2),
                    "p99", Stats.round(Stats.median(notifyP99), 2), "p50ByRound", notifyP50, "p99ByRound", notifyP99));
            m.put("cpuMsPerPrepay", Stats.round(Stats.median(prepayCpu), 3));
            m.put("cpuMsPerPrepayByRound", prepayCpu);
            m.put("cpuMsPerNotify", Stats.round(Stats.median(notifyCpu), 3));
            m.put("cpuMsPerNotifyByRound", notifyCpu);
            List<Double> found = rounds.stream().flatMap(t -> t.foundSeconds.stream()).toList();
            Map<String, Object> lost = new LinkedHashMap<>(WatchPhase.summary(found));
            lost.put("p50ByRound", foundP50);
            lost.put("p99ByRound", foundP99);
            m.put("lostNotifyFoundSeconds", lost);
            m.put("notifies", rounds.stream().mapToInt(t -> t.notifies).sum());
            m.put("batchSecondsMax", Stats.max(rounds.stream().flatMap(t -> t.batchSeconds.stream()).toList()));
            wallets.put(wallet, m);
            String at = " at " + rate + "/s";
            double p50 = Stats.median(notifyP50);
            double p99 = Stats.median(notifyP99);
            p50s.put(wallet, p50);
            p99s.put(wallet, p99);
            bench.results().info(NAME, wallet + ": notify to PAID p50" + at, String.format("%.1f ms (rounds %s)", p50,
                    notifyP50));
            bench.results().verdict(NAME, wallet + ": notify to PAID p99" + at, String.format("%.1f ms (rounds %s)",
                    p99, notifyP99), "<= 50 ms", p99 <= 50);
            bench.results().info(NAME, wallet + ": service CPU ms per prepay", String.format("%.2f (rounds %s)",
                    Stats.median(prepayCpu), prepayCpu));
            bench.results().info(NAME, wallet + ": service CPU ms per notify", String.format("%.2f (rounds %s)",
                    Stats.median(notifyCpu), notifyCpu));
            bench.results().info(NAME, wallet + ": lost notify found p50", String.format("%.1f s (rounds %s)",
                    Stats.median(foundP50), foundP50));
            bench.results().verdict(NAME, wallet + ": lost notify found p99", String.format(
                    "%.1f s (rounds %s, max %.1f s)", Stats.median(foundP99), foundP99, Stats.max(found)), "<= " + bound + " s",
                    Stats.median(foundP99) <= bound);
        });
        Map<String, Object> figures = bench.results().phase(NAME);
        figures.put("notifiesPerSecond", rate);
        figures.put("batch", batch());
        figures.put("rounds", rounds());
        figures.put("wallets", wallets);
        bench.results().chart(Svg.bars("Notify to PAID at " + rate + "/s by wallet (medians of rounds)", "ms",
                List.of("p50", "p99"), WALLETS.stream().map(wallet -> new Svg.Series(wallet,
                        List.of(p50s.get(wallet), p99s.get(wallet)))).toList()));
    }

    private static List<Double> perRound(List<Tally> rounds, Function<Tally, Double> figure) {
        return rounds.stream().map(figure).map(value -> Stats.round(value, 2)).toList();
    }
}
