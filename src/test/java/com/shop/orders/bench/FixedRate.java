package com.shop.orders.bench;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Open-model load from the benchmark's own JVM: prebuilt requests sent at a fixed rate whatever the answers (each at
 * its time from the start, so a slow answer does not delay the next request), each answer's time kept. For short
 * runs that follow one another within seconds, where starting Gatling's JVM each time would take longer than the run.
 */
final class FixedRate {

    /** One answer: its time from the request's scheduled send (ms), and whether it was the expected one. */
    record Answer(double ms, boolean ok) {
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private FixedRate() {
    }

    /** Sends {@code requests} in order at {@code perSecond}; waits for the last answer. */
    static List<Answer> send(List<HttpRequest> requests, int perSecond, Predicate<HttpResponse<String>> expected) {
        long origin = System.nanoTime();
        long interval = 1_000_000_000L / perSecond;
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            // Timed from when it was due, not when it went: a late send is the load generator's delay, counted.
            long due = origin + i * interval;
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            answers.add(HTTP.sendAsync(requests.get(i), HttpResponse.BodyHandlers.ofString())
                    .handle((response, failure) -> new Answer((System.nanoTime() - due) / 1e6,
                            failure == null && expected.test(response))));
        }
        try {
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("requests at a fixed rate still unanswered 60 s after the last", e);
        }
        return answers.stream().map(CompletableFuture::join).toList();
    }
}
