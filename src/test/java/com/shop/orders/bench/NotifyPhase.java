package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase 5: notify to PAID. Pending orders are placed first (not measured), then Alipay's notifies for them,
 * signed with the sandbox's Alipay key, arrive at a fixed rate (Gatling, open model); the service answers
 * "success" once the order is PAID, so the response time is the time from notify to PAID. A warm-up at the same
 * rate pays other orders first and is not in the figure.
 */
final class NotifyPhase {

    static final String NAME = "5 notify to PAID";
    /** The member who places the orders that notifies pay (and asks for their QR codes). */
    static final String MEMBER = "bench-notify-member";

    private final Bench bench;

    NotifyPhase(Bench bench) {
        this.bench = bench;
    }

    void run() {
        BenchSize size = bench.size();
        int notifies = (int) (size.notifyRate() * size.notifyLength().toSeconds());
        int warmUps = (int) (size.notifyRate() * size.warmUp().toSeconds());
        Catalog.Range warmUpSkus = bench.catalog().create(50, 10_000_000);
        Catalog.Range skus = bench.catalog().create(50, 10_000_000);
        placeOrders(bench, warmUpSkus, warmUps + warmUps / 10 + 5);
        placeOrders(bench, skus, notifies + notifies / 10 + 5);
        List<OrderFacts.OrderRow> pending = pending(skus, notifies);
        if (pending.size() < notifies) {
            bench.results().problem("notify: only " + pending.size() + " pending orders for " + notifies + " notifies");
        }
        Progress.say("  %d notifies at %d/s after %d s of warm-up (Gatling)", pending.size(), size.notifyRate(),
                size.warmUp().toSeconds());
        Map<String, String> props = new LinkedHashMap<>();
        props.put("baseUrl", bench.service().apiUrl());
        props.put("notifies", notifyFile(pending, "notifies.csv").toString());
        props.put("warmUpNotifies", notifyFile(pending(warmUpSkus, warmUps), "warm-up-notifies.csv").toString());
        props.put("warmUpSeconds", Long.toString(size.warmUp().toSeconds()));
        props.put("rate", Integer.toString(size.notifyRate()));
        props.put("seconds", Long.toString(pending.size() / size.notifyRate()));
        Gatling.Request notify = bench.gatling().run("NotifyAtFixedRate", props,
                size.notifyLength().plus(size.warmUp())).get("notify");
        Map<String, Object> figures = bench.results().phase(NAME);
        if (notify == null || notify.total() == 0) {
            bench.results().problem("notify: Gatling reported no request");
            return;
        }
        if (notify.ko() > 0) {
            bench.results().problem("notify: " + notify.ko() + " of " + notify.total() + " not answered \"success\"");
        }
        long paid = bench.facts().count(skus, "PAID");
        if (paid != notify.ok()) {
            bench.results().problem("notify: " + notify.ok() + " answered success but " + paid + " orders PAID");
        }
        figures.put("notifiesPerSecond", size.notifyRate());
        figures.put("notify", notify.toMap());
        figures.put("ordersPaid", paid);
        bench.results().verdict(NAME, "p99 at " + size.notifyRate() + " notifies/s", String.format(
                "%.0f ms (p50 %.0f, max %.0f)", notify.p99(), notify.p50(), notify.max()), "<= 50 ms", notify.p99() <= 50);
        bench.results().chart(Svg.bars("Notify to PAID at " + size.notifyRate() + "/s, open model (Gatling)", "ms",
                List.of("p50", "p90", "p99", "p99.9", "max"), List.of(new Svg.Series("notify",
                        List.of(notify.p50(), notify.p90(), notify.p99(), notify.p999(), notify.max())))));
    }

    private List<OrderFacts.OrderRow> pending(Catalog.Range skus, int most) {
        return bench.facts().orders(skus).stream().filter(o -> "PENDING_PAYMENT".equals(o.status())).limit(most)
                .toList();
    }

    /** Alipay's notifies for these orders, signed with the sandbox's key: the CSV the scenario feeds from. */
    private Path notifyFile(List<OrderFacts.OrderRow> orders, String name) {
        NotifyForms forms = new NotifyForms(bench.stack().sandbox());
        List<String> lines = new ArrayList<>();
        lines.add("body");
        orders.forEach(o -> lines.add(forms.paid(o.orderNo(), o.total().toPlainString())));
        try {
            return Files.write(bench.runDir().resolve(name), lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Places the orders the notifies will pay, as {@link #MEMBER}, 32 at a time, on the SKUs in turn. */
    static void placeOrders(Bench bench, Catalog.Range skus, int count) {
        String token = bench.stack().tokens().token(MEMBER);
        List<HttpRequest> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long sku = skus.from() + i % skus.size();
            orders.add(HttpRequest.newBuilder(URI.create(bench.service().apiUrl() + "/api/orders"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"items\":[{\"skuId\":" + sku + ",\"quantity\":1}]}"))
                    .build());
        }
        Requests.statuses(orders, 32);
    }
}
