package com.shop.orders.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Closed-model placement load that keeps the time of every answer, so that a run can be cut into windows (its first
 * 5 s, its first 10 s, ...) and into a rate per second: the cold-start phase's view, which wrk's whole-run summary
 * cannot give. Each of {@code connections} loops orders one unit of the SKU after another as a random member, as
 * bench/wrk/place-orders.lua does. A phase runs it against a warm service first, so that this JVM's own JIT is not
 * what it measures.
 */
final class TimedLoad {

    /** One answer: when its request was sent and answered (System.nanoTime), and its status (-1: no answer). */
    record Answer(long sentNanos, long answeredNanos, int status) {
    }

    /** The answers of one run, with its start as the origin of every window. */
    record Run(long originNanos, double seconds, List<Answer> answers) {

        /** Answers received in [from, to) seconds after the origin, per second. */
        double perSecond(double from, double to) {
            return answersIn(from, to).size() / (Math.min(to, seconds) - from);
        }

        /** Answers with this status received in [from, to). */
        long count(double from, double to, int status) {
            return answersIn(from, to).stream().filter(a -> a.status() == status).count();
        }

        /** A latency percentile (ms) of the answers received in [from, to). */
        double latencyPercentile(double from, double to, double p) {
            return Stats.percentile(answersIn(from, to).stream()
                    .map(a -> (a.answeredNanos() - a.sentNanos()) / 1e6).toList(), p);
        }

        /** Answers per second in each whole second of the run. */
        List<Double> ratePerSecond() {
            List<Double> rates = new ArrayList<>();
            for (int s = 0; s < (int) seconds; s++) {
                rates.add(perSecond(s, s + 1));
            }
            return rates;
        }

        /** Answers other than the given statuses. */
        long unexpected(int... expected) {
            return answers.stream().filter(a -> Arrays.stream(expected).noneMatch(e -> e == a.status()))
                    .count();
        }

        private List<Answer> answersIn(double from, double to) {
            long lo = originNanos + (long) (from * 1e9);
            long hi = originNanos + (long) (to * 1e9);
            return answers.stream().filter(a -> a.answeredNanos() >= lo && a.answeredNanos() < hi).toList();
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<String> tokens;

    TimedLoad(Path tokensFile) {
        try {
            this.tokens = Files.readAllLines(tokensFile).stream().filter(line -> !line.equals("token")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Orders for {@code length} at {@code connections} against the service at {@code apiUrl}, then waits for the last answers. */
    Run place(String apiUrl, long skuId, int connections, Duration length) {
        URI orders = URI.create(apiUrl + "/api/orders");
        String body = "{\"items\":[{\"skuId\":" + skuId + ",\"quantity\":1}]}";
        ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        CountDownLatch loopsDone = new CountDownLatch(connections);
        long origin = System.nanoTime();
        long deadline = origin + length.toNanos();
        for (int i = 0; i < connections; i++) {
            next(orders, body, deadline, answers, loopsDone);
        }
        try {
            if (!loopsDone.await(length.toSeconds() + 60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("placement loops still running 60 s after the end of the run");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new Run(origin, length.toMillis() / 1000.0, List.copyOf(answers));
    }

    private void next(URI orders, String body, long deadline, ConcurrentLinkedQueue<Answer> answers,
            CountDownLatch loopsDone) {
        long sent = System.nanoTime();
        if (sent >= deadline) {
            loopsDone.countDown();
            return;
        }
        HttpRequest request = HttpRequest.newBuilder(orders).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + tokens.get(ThreadLocalRandom.current().nextInt(tokens.size())))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            answers.add(new Answer(sent, System.nanoTime(), failure == null ? response.statusCode() : -1));
            if (failure == null) {
                next(orders, body, deadline, answers, loopsDone);
            } else {
                // A refused connection fails at once: pause, or the loop would spin and record nothing but errors.
                CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS)
                        .execute(() -> next(orders, body, deadline, answers, loopsDone));
            }
        });
    }
}
