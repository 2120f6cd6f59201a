package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.testsupport.Pause;

/**
 * The soak's mixed traffic on the one service, an open model from this JVM as {@link FixedRate} sends it: at a fixed
 * rate, whatever the answers, placements on SKUs with ample stock and, half as many, attempts at a sold-out SKU (409).
 * Each placed order then meets its {@link Fate}; a follow-up (QR request, notify, refund) is sent as soon as the answer
 * it needs arrives. Every answer is timed from when its request was due and counted in that window
 * ({@link SoakWindows}); any answer but the expected one, or none within {@link #TIMEOUT}, is an error.
 */
final class SoakTraffic implements AutoCloseable {

    /** Counts of what the traffic did, as its answers said. */
    record Counts(long placed, long soldOutAnswers, long prepaid, long notified, long paidNotifyLost, long refunded) {
    }

    /**
     * What becomes of a placed order, by its number in the run; of every 40: 20 paid by the wallet's notify (half of
     * all, 2 of them then partly refunded by an admin: a tenth of those paid), 2 paid at the wallet with the notify
     * lost (5 %, for the service's probe to find), the other 18 left unpaid to expire through the broker's
     * check-backs. The wallet alternates from one order to the next, so every fate meets both.
     */
    enum Fate {
        NOTIFY_THEN_REFUND, NOTIFY, NOTIFY_LOST, UNPAID;

        static Fate of(long placement) {
            int r = (int) (placement % 40);
            return r < 2 ? NOTIFY_THEN_REFUND : r < 20 ? NOTIFY : r < 22 ? NOTIFY_LOST : UNPAID;
        }
    }

    /** An answer as it arrived: the response or the failure, and when (System.nanoTime). */
    private record Answer(HttpResponse<String> response, Throwable failure, long atNanos) {
        String describe() {
            if (failure == null) {
                return "status " + response.statusCode();
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                    : failure;
            return cause.getClass().getSimpleName();
        }
    }

    static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String PLACEMENT = "placement";
    private static final String SOLD_OUT = "sold-out attempt";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Bench bench;
    private final Catalog.Range skus;
    private final long soldOutSku;
    private final SoakWindows windows;
    private final RenewedTokens tokens;
    private final WalletPayments payments;
    private final URI orders;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** Where answers are handled and follow-ups built (a notify's signature takes a millisecond or two). */
    private final ExecutorService answers = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "soak-answers");
        t.setDaemon(true);
        return t;
    });
    /** Requests sent and not handled yet; a follow-up is counted before its cause is done, so 0 means all done. */
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder placed = new LongAdder();
    private final LongAdder soldOutAnswers = new LongAdder();
    private final LongAdder prepaid = new LongAdder();
    private final LongAdder notified = new LongAdder();
    private final LongAdder paidNotifyLost = new LongAdder();
    private final LongAdder refunded = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    /** The first answer of each kind of error, for the report. */
    private final Map<String, String> firstOfEach = new ConcurrentHashMap<>();

    /**
     * Traffic on {@code skus} and the sold-out SKU, by the members of {@code tokens} (in turn) and its admin, its
     * answers counted in {@code windows}, whose origin is when it starts.
     */
    SoakTraffic(Bench bench, Catalog.Range skus, long soldOutSku, RenewedTokens tokens,
            SoakWindows windows) {
        this.bench = bench;
        this.skus = skus;
        this.soldOutSku = soldOutSku;
        this.windows = windows;
        this.tokens = tokens;
        this.payments = new WalletPayments(bench);
        this.orders = URI.create(bench.service().apiUrl() + "/api/orders");
    }

    /**
     * Sends for the soak's length from the windows' origin: two placements, then a sold-out attempt, and so on, at
     * 1.5 times the size's soak rate. Returns when the last is sent; their answers and follow-ups go on.
     */
    void run() {
        double perSecond = 1.5 * bench.size().soakRate();
        long requests = Math.round(bench.size().soakLength().toNanos() / 1e9 * perSecond);
        for (long i = 0; i < requests; i++) {
            // Due at its time from the origin, not after the one before: a late send is this JVM's delay, counted.
            long due = windows.originNanos() + Math.round(i * 1e9 / perSecond);
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (i % 3 == 2) {
                send(SOLD_OUT, order(soldOutSku, tokens.member(i)), due, response -> response.statusCode() == 409,
                        response -> soldOutAnswers.increment());
            } else {
                place(i / 3 * 2 + i % 3, due);
            }
        }
    }

    /** Waits up to {@code most} for every answer and follow-up; answers how many requests are still unanswered. */
    int awaitAnswers(Duration most) {
        Instant giveUp = Instant.now().plus(most);
        while (inFlight.get() > 0 && Instant.now().isBefore(giveUp)) {
            Pause.of(Duration.ofMillis(200));
        }
        return inFlight.get();
    }

    Counts counts() {
        return new Counts(placed.sum(), soldOutAnswers.sum(), prepaid.sum(), notified.sum(), paidNotifyLost.sum(),
                refunded.sum());
    }

    /** Errors by what was asked and what came back (or did not), e.g. "notify wechat: status 500". */
    Map<String, Long> errors() {
        Map<String, Long> byKind = new TreeMap<>();
        errors.forEach((kind, n) -> byKind.put(kind, n.sum()));
        return byKind;
    }

    long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** The first error of each kind, with the answer's body (abbreviated). */
    Map<String, String> firstOfEach() {
        return new TreeMap<>(firstOfEach);
    }

    /** The k-th placement of the run, by member k and on SKU k (each in turn); its order then meets its fate. */
    private void place(long k, long due) {
        String token = tokens.member(k);
        long sku = skus.from() + k % skus.size();
        send(PLACEMENT, order(sku, token), due, response -> response.statusCode() == 201,
                response -> placed(k, token, response));
    }

    private void placed(long k, String token, HttpResponse<String> response) {
        placed.increment();
        Fate fate = Fate.of(k);
        if (fate == Fate.UNPAID) {
            return;
        }
        JsonNode order = json(response.body());
        long id = order.get("id").asLong();
        String orderNo = order.get("orderNo").asText();
        BigDecimal total = new BigDecimal(order.get("totalAmount").asText()).setScale(2, RoundingMode.UNNECESSARY);
        String wallet = WalletsPhase.WALLETS.get((int) (k % WalletsPhase.WALLETS.size()));
        HttpRequest prepay = payments.prepay(id, token, wallet, TIMEOUT);
        send("prepay " + wallet, prepay, System.nanoTime(), r -> r.statusCode() == 200,
                r -> prepaid(fate, wallet, id, orderNo, total));
    }

    /** The buyer pays the code at the wallet; the wallet's notify then arrives, or (NOTIFY_LOST) never does. */
    private void prepaid(Fate fate, String wallet, long id, String orderNo, BigDecimal total) {
        prepaid.increment();
        if (payments.payWithoutNotify(wallet, orderNo).isEmpty()) {
            error("pay at " + wallet, "no trade for the order", System.nanoTime());
            return;
        }
        if (fate == Fate.NOTIFY_LOST) {
            paidNotifyLost.increment();
            return;
        }
        HttpRequest notify = payments.notify(wallet, orderNo, total.toPlainString(), TIMEOUT);
        send("notify " + wallet, notify, System.nanoTime(), WalletPayments.answered(wallet),
                r -> notified(fate, id, orderNo, total));
    }

    private void notified(Fate fate, long id, String orderNo, BigDecimal total) {
        notified.increment();
        if (fate == Fate.NOTIFY_THEN_REFUND) {
            HttpRequest refund = refund(id, orderNo, total);
            send("refund", refund, System.nanoTime(), r -> r.statusCode() == 201, r -> refunded.increment());
        }
    }

    /**
     * Sends the request, due at {@code due}; its answer, timed from then, counts in its window, and if it is the
     * expected one {@code then} handles it (on {@link #answers}, where it may send follow-ups).
     */
    private void send(String what, HttpRequest request, long due, Predicate<HttpResponse<String>> expected,
            Consumer<HttpResponse<String>> then) {
        inFlight.incrementAndGet();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .handle((response, failure) -> new Answer(response, failure, System.nanoTime()))
                .thenAcceptAsync(answer -> {
                    try {
                        boolean ok = answer.failure() == null && expected.test(answer.response());
                        windows.answer(due, what.equals(PLACEMENT), (answer.atNanos() - due) / 1e6, ok);
                        if (!ok) {
                            countError(what + ": " + answer.describe(), answer.response() == null ? null
                                    : answer.response().body());
                        } else {
                            then.accept(answer.response());
                        }
                    } catch (RuntimeException e) {
                        error(what + ", then", e.toString(), answer.atNanos());
                    } finally {
                        inFlight.decrementAndGet();
                    }
                }, answers);
    }

    /** A failure of this side's along an order's path: an error of the soak as well, in the window it happened in. */
    private void error(String what, String detail, long atNanos) {
        windows.failure(atNanos);
        countError(what, detail);
    }

    private void countError(String kind, String detail) {
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
        if (detail != null) {
            firstOfEach.putIfAbsent(kind, detail.length() <= 200 ? detail : detail.substring(0, 200) + "...");
        }
    }

    private HttpRequest order(long sku, String token) {
        return HttpRequest.newBuilder(orders).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"items\":[{\"skuId\":" + sku + ",\"quantity\":1}]}"))
                .build();
    }

    /** An admin's partial refund: a tenth of the order, once (its key is the order's). */
    private HttpRequest refund(long id, String orderNo, BigDecimal total) {
        BigDecimal amount = total.divide(BigDecimal.TEN, 2, RoundingMode.DOWN).max(new BigDecimal("0.01"));
        return HttpRequest.newBuilder(URI.create(bench.service().apiUrl() + "/api/admin/orders/" + id + "/refunds"))
                .timeout(TIMEOUT)
                .header("Authorization", "Bearer " + tokens.admin()).header("Content-Type", "application/json")
                .header("Idempotency-Key", "soak-" + orderNo)
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":" + amount.toPlainString()
                        + ",\"reason\":\"soak\"}"))
                .build();
    }

    private static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        answers.shutdownNow();
    }
}
