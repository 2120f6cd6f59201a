package com.shop.orders.bench;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.Callable;

import com.shop.orders.testsupport.Concurrently;

/** The benchmark's own set-up requests (not measured): sent a few at a time, answered with their statuses. */
final class Requests {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private Requests() {
    }

    /** Each request's status, in order; -1 for one that got no answer. */
    static List<Integer> statuses(List<HttpRequest> requests, int atOnce) {
        List<Callable<Integer>> calls = requests.stream().<Callable<Integer>>map(request -> () -> status(request))
                .toList();
        try {
            return Concurrently.run(atOnce, calls);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int status(HttpRequest request) throws InterruptedException {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        }
    }
}
