package com.shop.orders.testsupport;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.restassured.RestAssured;

/**
 * A server-sent events client for tests: reads the stream as it arrives (no thread per stream), keeps the
 * events in order and notes heartbeat comments and the end of the stream.
 */
public final class EventStream implements AutoCloseable {

    public record Event(String name, String data) {
    }

    // One small pool for every stream of the run: the client must not add a thread per stream either.
    private static final ExecutorService CLIENT_THREADS = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "event-stream-client");
        thread.setDaemon(true);
        return thread;
    });
    private static final HttpClient CLIENT = HttpClient.newBuilder().executor(CLIENT_THREADS)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final List<String> comments = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final CompletableFuture<HttpResponse<Flow.Publisher<List<ByteBuffer>>>> response;
    private volatile Flow.Subscription subscription;

    private EventStream(String url, String token) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .header("Accept", "text/event-stream")
                .header("Authorization", "Bearer " + token)
                .GET().build();
        // Completes with the head; the body is read as it arrives.
        this.response = CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofPublisher())
                .whenComplete((answer, failure) -> {
                    if (answer != null) {
                        answer.body().subscribe(new Lines());
                    } else {
                        ended.completeExceptionally(failure);
                    }
                });
    }

    /** Opens the stream and waits for its head. */
    public static EventStream open(String path, String token) {
        return openAt(RestAssured.baseURI + ":" + RestAssured.port, path, token);
    }

    /** Opens the stream of the service at {@code baseUrl} (one replica of several) and waits for its head. */
    public static EventStream openAt(String baseUrl, String path, String token) {
        EventStream stream = new EventStream(baseUrl + path, token);
        stream.status();
        return stream;
    }

    public int status() {
        return head().statusCode();
    }

    public String contentType() {
        return header("Content-Type");
    }

    /** A header of the answer's head, or "" when it has none. */
    public String header(String name) {
        return head().headers().firstValue(name).orElse("");
    }

    /** The next event, or an AssertionError when none arrives in time. */
    public Event next(Duration atMost) {
        try {
            Event event = events.poll(atMost.toMillis(), TimeUnit.MILLISECONDS);
            if (event == null) {
                throw new AssertionError("No event within " + atMost + (ended.isDone() ? " (the stream has ended)" : ""));
            }
            return event;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public List<Event> pending() {
        List<Event> drained = new ArrayList<>();
        events.drainTo(drained);
        return drained;
    }

    public List<String> comments() {
        return List.copyOf(comments);
    }

    /** True when the server ended the stream within {@code atMost}. */
    public boolean endsWithin(Duration atMost) {
        try {
            ended.get(atMost.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            return ended.isDone();
        }
    }

    @Override
    public void close() {
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    private HttpResponse<?> head() {
        try {
            return response.get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("The stream did not open", e);
        }
    }

    /** The SSE wire format: "field: value" lines, a blank line ends an event, ":" starts a comment. */
    private final class Lines implements Flow.Subscriber<List<ByteBuffer>> {

        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private String name = "message";
        private final StringBuilder data = new StringBuilder();

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                while (buffer.hasRemaining()) {
                    byte b = buffer.get();
                    if (b == '\n') {
                        onLine(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else if (b != '\r') {
                        line.write(b);
                    }
                }
            }
        }

        private void onLine(String line) {
            if (line.isEmpty()) {
                if (data.length() > 0) {
                    events.add(new Event(name, data.toString()));
                }
                name = "message";
                data.setLength(0);
            } else if (line.startsWith(":")) {
                comments.add(line.substring(1).trim());
            } else if (line.startsWith("event:")) {
                name = line.substring(6).trim();
            } else if (line.startsWith("data:")) {
                if (data.length() > 0) {
                    data.append('\n');
                }
                data.append(line.substring(5).stripLeading());
            }
        }

        @Override
        public void onError(Throwable throwable) {
            ended.completeExceptionally(throwable);
        }

        @Override
        public void onComplete() {
            ended.complete(null);
        }
    }
}
