package com.shop.orders.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.shop.orders.sandbox.alipay.BuyerActionRefused;
import com.shop.orders.sandbox.wechat.WechatBuyerRefused;
import com.shop.orders.sandbox.wechat.WechatSandboxServer;
import com.shop.orders.testsupport.Pause;

/**
 * A stream of orders through the stack's front, as members and buyers would make them: each order is placed, then
 * (by its kind) paid, paid with the notify lost, cancelled by the member, or left to expire, on the stream's wallet
 * (Alipay, or WeChat Pay), whose sandbox's buyer pays the codes. A race stream ({@link #race}) offers each order on
 * both wallets and pays both codes at once. Clients retry what failed on the server's side (5xx, refused
 * connections) with the same idempotency key, as a storefront does.
 */
final class OrderStream {

    /**
     * What the member and buyer do with an order. CANCEL_RACE: the member cancels while the QR code is being
     * requested (two tabs), and the buyer tries to pay whatever QR code came back. BOTH_WALLETS: offered on both
     * wallets, and both codes paid at the same moment (counted when both wallets took the money).
     */
    enum Kind { PAID, NOTIFY_LOST, CANCELLED, CANCEL_RACE, EXPIRED, BOTH_WALLETS }

    /** An order the stream placed. */
    record Placed(long id, String orderNo, Kind kind, Instant payDeadline) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ServiceStack stack;
    private final String tag;
    private final List<Long> skus;
    private final long hotSku;
    private final boolean duplicateNotifies;
    /** The wallet the orders are offered and paid on: {@link WalletTrade#ALIPAY} or {@link WalletTrade#WECHAT}. */
    private final String channel;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3)).build();
    private final ExecutorService lives = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "order-life");
        t.setDaemon(true);
        return t;
    });
    /** Second requests of one order's life (the QR code requested while the member cancels). */
    private final ExecutorService sideRequests = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "order-side-request");
        t.setDaemon(true);
        return t;
    });
    private final List<Placed> placed = new CopyOnWriteArrayList<>();
    private final Map<Kind, AtomicInteger> acted = new ConcurrentHashMap<>();
    private final AtomicInteger outOfStock = new AtomicInteger();
    private final AtomicInteger failedPlacements = new AtomicInteger();
    private final AtomicLong clientRetries = new AtomicLong();
    private final AtomicInteger notifiesRepeated = new AtomicInteger();
    private final AtomicInteger paidAfterCancel = new AtomicInteger();
    /** The largest time between the two wallets' payments of one order in a race, in nanoseconds. */
    private final AtomicLong raceSkewNanos = new AtomicLong();
    /** Race orders not raced, and why: a code not given (window over), or a wallet refusing its buyer (expired). */
    private final Map<String, AtomicInteger> notRaced = new ConcurrentHashMap<>();
    /** Race orders both of whose codes were paid. */
    private final java.util.Set<String> raced = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> serverErrors = new ConcurrentHashMap<>();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();

    /** A stream on Alipay. */
    OrderStream(ServiceStack stack, String tag, List<Long> skus, long hotSku, boolean duplicateNotifies) {
        this(stack, tag, skus, hotSku, duplicateNotifies, WalletTrade.ALIPAY);
    }

    /**
     * @param duplicateNotifies on Alipay the stream sends a paid order's notify again; WeChat's sandbox repeats its
     *                          notifies by its own knob ({@code faults().duplicateNotifies})
     */
    OrderStream(ServiceStack stack, String tag, List<Long> skus, long hotSku, boolean duplicateNotifies,
                String channel) {
        this.stack = stack;
        this.tag = tag;
        this.skus = skus;
        this.hotSku = hotSku;
        this.duplicateNotifies = duplicateNotifies;
        this.channel = channel;
    }

    /** Starts an order every {@code 1/rate} seconds for {@code duration}; returns when the last one was started. */
    void run(double perSecond, Duration duration) {
        long intervalNanos = (long) (1e9 / perSecond);
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        int n = 0;
        for (long next = start; next < end; next += intervalNanos) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Pause.of(Duration.ofNanos(wait));
            }
            int number = n++;
            lives.submit(() -> life(number));
        }
    }

    /**
     * A race stream: {@code orders} orders started evenly over {@code spread}, each placed, offered on both wallets,
     * and both codes paid at the same moment (two buyers released by one latch); returns when the last was started.
     */
    void race(int orders, Duration spread) {
        long intervalNanos = spread.toNanos() / Math.max(1, orders);
        long start = System.nanoTime();
        for (int n = 0; n < orders; n++) {
            long wait = start + n * intervalNanos - System.nanoTime();
            if (wait > 0) {
                Pause.of(Duration.ofNanos(wait));
            }
            int number = n;
            lives.submit(() -> raceLife(number));
        }
    }

    private void raceLife(int number) {
        try {
            String token = tokens.computeIfAbsent(tag + "-m" + (number % 7), m -> stack.tokens().token(m));
            Placed order = place(token, Kind.BOTH_WALLETS, ThreadLocalRandom.current());
            if (order == null) {
                return;
            }
            placed.add(order);
            // Both codes asked for at once, as two tabs would: the payments then come early in the window.
            java.util.concurrent.CompletableFuture<String> wechatQr = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> requestQr(token, order, WalletTrade.WECHAT), sideRequests);
            String alipayCode = requestQr(token, order, WalletTrade.ALIPAY);
            String wechatCode = wechatQr.join();
            if (alipayCode == null || wechatCode == null) {
                // Answered 409 (the window over on a loaded machine) or never: not raced; the invariants still hold.
                notRaced.computeIfAbsent("not offered on " + (alipayCode == null ? "alipay" : "")
                        + (alipayCode == null && wechatCode == null ? "+" : "") + (wechatCode == null ? "wechat" : ""),
                        k -> new AtomicInteger()).incrementAndGet();
                return;
            }
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CompletableFuture<Long> alipay = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> payWhenReleased(go, WalletTrade.ALIPAY, alipayCode), sideRequests);
            java.util.concurrent.CompletableFuture<Long> wechat = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> payWhenReleased(go, WalletTrade.WECHAT, wechatCode), sideRequests);
            go.countDown();
            long alipayPaidAt = alipay.join();
            long wechatPaidAt = wechat.join();
            if (alipayPaidAt < 0 || wechatPaidAt < 0) {
                notRaced.computeIfAbsent("refused by " + (alipayPaidAt < 0 ? "alipay" : "")
                        + (alipayPaidAt < 0 && wechatPaidAt < 0 ? "+" : "") + (wechatPaidAt < 0 ? "wechat" : ""),
                        k -> new AtomicInteger()).incrementAndGet();
                return;
            }
            raceSkewNanos.accumulateAndGet(Math.abs(alipayPaidAt - wechatPaidAt), Math::max);
            raced.add(order.orderNo());
            acted.computeIfAbsent(Kind.BOTH_WALLETS, k -> new AtomicInteger()).incrementAndGet();
        } catch (RuntimeException e) {
            unexpected.add("race " + number + ": " + e);
        }
    }

    /** Pays the code once released; when the wallet took the money (System.nanoTime), -1 when it refused. */
    private long payWhenReleased(java.util.concurrent.CountDownLatch go, String wallet, String code) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
        return buyerPays(wallet, code, true) ? System.nanoTime() : -1;
    }

    /** The largest time between the two wallets' payments of one order in a race. */
    Duration raceSkew() {
        return Duration.ofNanos(raceSkewNanos.get());
    }

    /** Race orders whose payments are over: raced, or not (see {@link #notRaced}). */
    int raceDecided() {
        return raced.size() + notRaced.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** The numbers of the race orders whose two codes were both paid. */
    java.util.Set<String> raced() {
        return raced;
    }

    /** Race orders that were not raced, by why (see {@link #notRaced}). */
    Map<String, Integer> notRaced() {
        Map<String, Integer> copy = new java.util.TreeMap<>();
        notRaced.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }

    /**
     * Warms the replicas' JVMs up (class loading, JIT) with {@code orders} orders that are placed, offered a QR code
     * and cancelled at once, so that they are decided before anything is measured.
     */
    void warmUp(int orders) throws InterruptedException {
        for (int i = 0; i < orders; i++) {
            int number = i;
            lives.submit(() -> {
                String token = tokens.computeIfAbsent(tag + "-m" + (number % 3), m -> stack.tokens().token(m));
                Placed order = place(token, Kind.CANCELLED, ThreadLocalRandom.current());
                if (order != null) {
                    placed.add(order);
                    requestQr(token, order);
                    call("POST", "/api/orders/" + order.id() + "/cancel", token, null, null, Instant.now().plusSeconds(30));
                }
            });
        }
        awaitLives(Duration.ofMinutes(2));
    }

    /**
     * One order of one unit of {@code sku} placed at each live replica directly (not through the front), left to
     * expire: each replica then knows the SKU as it was, and holds a unit of it, when its buckets are laid out
     * afterwards (those holds move into bucket 0). Returns how many were placed; a refusal is an unexpected answer.
     */
    int holdOnEachReplica(long sku) {
        int held = 0;
        for (ServiceProcess replica : stack.replicas()) {
            if (!replica.isAlive()) {
                continue;
            }
            String token = tokens.computeIfAbsent(tag + "-m0", m -> stack.tokens().token(m));
            Answer answer = call(replica.apiUrl(), "POST", "/api/orders", token,
                    "{\"items\":[{\"skuId\":" + sku + ",\"quantity\":1}]}", UUID.randomUUID().toString(),
                    Instant.now().plusSeconds(30));
            if (answer.status() == 201 || answer.status() == 200) {
                JsonNode order = answer.json();
                placed.add(new Placed(order.get("id").asLong(), order.get("orderNo").asText(), Kind.EXPIRED,
                        Instant.parse(order.get("payDeadline").asText())));
                acted.computeIfAbsent(Kind.EXPIRED, k -> new AtomicInteger()).incrementAndGet();
                held++;
            } else {
                unexpected.add("place at " + replica.name() + " before the buckets: " + answer);
            }
        }
        return held;
    }

    /** Waits until every order's life has run (placed, and paid, cancelled or left). */
    void awaitLives(Duration atMost) throws InterruptedException {
        lives.shutdown();
        boolean done = lives.awaitTermination(atMost.toMillis(), TimeUnit.MILLISECONDS);
        sideRequests.shutdown();
        if (!done) {
            throw new AssertionError("order lives still running after " + atMost);
        }
    }

    List<Placed> placed() {
        return placed;
    }

    int acted(Kind kind) {
        AtomicInteger n = acted.get(kind);
        return n == null ? 0 : n.get();
    }

    int outOfStock() {
        return outOfStock.get();
    }

    int failedPlacements() {
        return failedPlacements.get();
    }

    long clientRetries() {
        return clientRetries.get();
    }

    int notifiesRepeated() {
        return notifiesRepeated.get();
    }

    /** Answers a client should never get (4xx other than the expected ones). */
    List<String> unexpected() {
        return unexpected;
    }

    private void life(int number) {
        try {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            double r = random.nextDouble();
            Kind kind = r < 0.35 ? Kind.PAID : r < 0.50 ? Kind.NOTIFY_LOST : r < 0.62 ? Kind.CANCELLED
                    : r < 0.72 ? Kind.CANCEL_RACE : Kind.EXPIRED;
            String member = tag + "-m" + (number % 7);
            String token = tokens.computeIfAbsent(member, m -> stack.tokens().token(m));
            Placed order = place(token, kind, random);
            if (order == null) {
                return;
            }
            placed.add(order);
            Duration window = Duration.between(Instant.now(), order.payDeadline());
            if (kind == Kind.CANCEL_RACE) {
                cancelWhileRequestingQr(token, order);
                return;
            }
            // Most orders get a QR code; some expiring ones never do (the buyer left before paying).
            String qr = kind != Kind.EXPIRED || random.nextBoolean() ? requestQr(token, order) : null;
            if (kind == Kind.EXPIRED) {
                acted.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                return;
            }
            long left = Duration.between(Instant.now(), order.payDeadline()).toMillis();
            if (left > 600) {
                Pause.of(Duration.ofMillis(random.nextLong(100, Math.max(101, Math.min(left - 500, window.toMillis() / 2)))));
            }
            switch (kind) {
                case PAID -> {
                    if (qr != null && buyerPays(qr, true)) {
                        acted.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                        if (duplicateNotifies && WalletTrade.ALIPAY.equals(channel)) {
                            Pause.of(Duration.ofMillis(random.nextLong(200, 1500)));
                            if (stack.sandbox().resendNotify(order.orderNo())) {
                                notifiesRepeated.incrementAndGet();
                            }
                        }
                    }
                }
                case NOTIFY_LOST -> {
                    if (qr != null && buyerPays(qr, false)) {
                        acted.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                    }
                }
                case CANCELLED -> {
                    Answer answer = call("POST", "/api/orders/" + order.id() + "/cancel", token, null, null,
                            Instant.now().plusSeconds(30));
                    if (answer.status() == 200) {
                        acted.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
                    } else if (answer.status() != 409) {
                        unexpected.add("cancel " + order.orderNo() + ": " + answer);
                    }
                }
                default -> {
                }
            }
        } catch (RuntimeException e) {
            unexpected.add("order life " + number + ": " + e);
        }
    }

    private void cancelWhileRequestingQr(String token, Placed order) {
        java.util.concurrent.CompletableFuture<String> qr = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> requestQr(token, order), sideRequests);
        Answer cancel = call("POST", "/api/orders/" + order.id() + "/cancel", token, null, null,
                Instant.now().plusSeconds(30));
        if (cancel.status() == 200) {
            acted.computeIfAbsent(Kind.CANCEL_RACE, k -> new AtomicInteger()).incrementAndGet();
        } else if (cancel.status() != 409) {
            unexpected.add("cancel " + order.orderNo() + ": " + cancel);
        }
        String code = qr.join();
        if (code != null && buyerPays(code, true)) {
            paidAfterCancel.incrementAndGet();
            if (cancel.status() == 200) {
                // Closing an order must leave its QR code unpayable (the money would only come back by refund).
                unexpected.add("order " + order.orderNo() + " was cancelled (200), yet " + channel
                        + " took payment for the QR code offered meanwhile");
            }
        }
    }

    /** Buyers who paid a QR code they got while their order was being cancelled (their money must come back). */
    int paidAfterCancel() {
        return paidAfterCancel.get();
    }

    private Placed place(String token, Kind kind, ThreadLocalRandom random) {
        StringBuilder items = new StringBuilder();
        List<Long> lines = new java.util.ArrayList<>();
        if (random.nextDouble() < 0.3) {
            lines.add(hotSku);
        }
        int target = lines.size() + random.nextInt(1, Math.min(3, skus.size() + 1));
        while (lines.size() < target) {
            long sku = skus.get(random.nextInt(skus.size()));
            if (!lines.contains(sku)) {
                lines.add(sku);
            }
        }
        for (long sku : lines) {
            items.append(items.length() == 0 ? "" : ",")
                    .append("{\"skuId\":").append(sku).append(",\"quantity\":").append(random.nextInt(1, 4)).append('}');
        }
        String body = "{\"items\":[" + items + "]}";
        Answer answer = call("POST", "/api/orders", token, body, UUID.randomUUID().toString(), Instant.now().plusSeconds(60));
        if (answer.status() == 201 || answer.status() == 200) {
            JsonNode order = answer.json();
            return new Placed(order.get("id").asLong(), order.get("orderNo").asText(), kind,
                    Instant.parse(order.get("payDeadline").asText()));
        }
        if (answer.status() == 409) {
            outOfStock.incrementAndGet();
        } else {
            failedPlacements.incrementAndGet();
            if (answer.status() < 500 && answer.status() >= 0) {
                unexpected.add("place: " + answer);
            }
        }
        return null;
    }

    private String requestQr(String token, Placed order) {
        return requestQr(token, order, channel);
    }

    private String requestQr(String token, Placed order, String wallet) {
        return requestQr(token, order.id(), wallet, order.payDeadline().minusMillis(800));
    }

    /** The order's QR code on the stream's wallet, asked for until {@code giveUpAt}; null when there is none. */
    String requestQr(String token, long orderId, Instant giveUpAt) {
        return requestQr(token, orderId, channel, giveUpAt);
    }

    /** The order's QR code on the wallet (Alipay's asked for without a body, as before there were channels). */
    private String requestQr(String token, long orderId, String wallet, Instant giveUpAt) {
        String body = WalletTrade.ALIPAY.equals(wallet) ? null : "{\"channel\":\"" + wallet + "\"}";
        Answer answer = call("POST", "/api/orders/" + orderId + "/payment", token, body, null, giveUpAt);
        if (answer.status() == 200) {
            return answer.json().get("qrCode").asText();
        }
        if (answer.status() >= 400 && answer.status() < 500 && answer.status() != 409) {
            unexpected.add("payment of order " + orderId + ": " + answer);
        }
        return null;
    }

    /** The buyer pays the code at the stream's wallet, its notify sent or lost; false when the wallet refused. */
    private boolean buyerPays(String code, boolean notified) {
        return buyerPays(channel, code, notified);
    }

    /** The buyer pays the code at the wallet, its notify sent or lost; false when the wallet refused. */
    boolean buyerPays(String wallet, String code, boolean notified) {
        try {
            if (WalletTrade.WECHAT.equals(wallet)) {
                WechatSandboxServer wechat = stack.wechatSandbox();
                return (notified ? wechat.pay(code) : wechat.payWithoutNotify(code)).isPresent();
            }
            if (notified) {
                stack.sandbox().buyer().pay(code);
            } else {
                stack.sandbox().payWithoutNotify(code);
            }
            return true;
        } catch (BuyerActionRefused | WechatBuyerRefused refused) {
            return false; // expired or closed meanwhile: the buyer is told so
        }
    }

    record Answer(int status, String body, Map<String, List<String>> headers) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON: " + body, e);
            }
        }

        @Override
        public String toString() {
            return status + " " + (body == null ? "" : body.length() > 300 ? body.substring(0, 300) : body);
        }
    }

    /** One API call, repeated while the answer is a server-side failure (5xx, no connection) and time is left. */
    Answer call(String method, String path, String token, String body, String idempotencyKey, Instant giveUpAt) {
        return call(stack.apiUrl(), method, path, token, body, idempotencyKey, giveUpAt);
    }

    /** {@link #call(String, String, String, String, String, Instant)} at this base URL (a replica, or the front). */
    Answer call(String baseUrl, String method, String path, String token, String body, String idempotencyKey,
                Instant giveUpAt) {
        Answer last = null;
        int attempt = 0;
        while (true) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .timeout(Duration.ofSeconds(20))
                    .header("Authorization", "Bearer " + token)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body));
            if (body != null) {
                request.header("Content-Type", "application/json");
            }
            if (idempotencyKey != null) {
                request.header("Idempotency-Key", idempotencyKey);
            }
            try {
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                last = new Answer(response.statusCode(), response.body(), response.headers().map());
            } catch (IOException e) {
                last = new Answer(-1, e.toString(), Map.of());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Answer(-1, "interrupted", Map.of());
            }
            if (last.status() >= 0 && last.status() < 500) {
                return last;
            }
            serverError(method, path, last);
            if (Instant.now().isAfter(giveUpAt)) {
                return last;
            }
            clientRetries.incrementAndGet();
            attempt++;
            Pause.of(Duration.ofMillis(Math.min(2000, 200L * attempt)));
        }
    }

    /**
     * Failures as clients saw them, by kind: a replica's problem+json (with or without Retry-After), the front's own
     * answers (no replica, or one that died mid-request), no connection. A replica's 500 is a violation.
     */
    private void serverError(String method, String path, Answer answer) {
        String type = answer.headers().getOrDefault("content-type", List.of("")).stream().findFirst().orElse("");
        String kind;
        if (answer.status() < 0) {
            kind = "no answer";
        } else if (type.contains("problem+json")) {
            boolean retryAfter = answer.headers().containsKey("retry-after");
            kind = answer.status() + (retryAfter ? "+Retry-After" : "");
            if (answer.status() == 500) {
                unexpected.add("500 to " + method + " " + path.replaceAll("[0-9]+", "{id}") + ": " + answer);
            }
        } else if (type.startsWith("text/plain") && (answer.status() == 502 || answer.status() == 503)) {
            kind = "front " + answer.status();
        } else {
            kind = answer.status() + " " + type;
            unexpected.add("unexpected failure to " + method + " " + path + ": " + answer);
        }
        serverErrors.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
    }

    /** Server-side failures clients saw, by kind (see {@link #serverError}). */
    Map<String, Integer> serverErrors() {
        Map<String, Integer> copy = new java.util.TreeMap<>();
        serverErrors.forEach((k, v) -> copy.put(k, v.get()));
        return copy;
    }
}
