package com.shop.orders.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A round-robin HTTP front over the replicas, like a Kubernetes Service: a request goes to the next replica that
 * takes traffic (alive and not terminating); one that refuses the connection (dead, or not listening yet) is
 * skipped and the next one tried. A replica that fails after the request was sent answers 502: the request is
 * not sent twice. Buffers whole bodies (no streaming: server-sent events are not proxied).
 */
final class FrontProxy implements AutoCloseable {

    private static final Set<String> HOP_BY_HOP = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection", "date");

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newFixedThreadPool(64, r -> {
        Thread t = new Thread(r, "front-proxy");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final Supplier<List<ServiceProcess>> replicas;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong unavailable = new AtomicLong();
    private final AtomicLong failedUpstream = new AtomicLong();

    FrontProxy(Supplier<List<ServiceProcess>> replicas) throws IOException {
        this.replicas = replicas;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", Ports.free()), 512);
        server.setExecutor(handlers);
        server.createContext("/", this::forward);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Requests answered 503 because no replica took the connection. */
    long unavailable() {
        return unavailable.get();
    }

    /** Requests answered 502 because the replica failed after the request was sent. */
    long failedUpstream() {
        return failedUpstream.get();
    }

    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow();
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            List<ServiceProcess> all = replicas.get();
            int start = Math.floorMod(next.getAndIncrement(), Math.max(1, all.size()));
            for (int i = 0; i < all.size(); i++) {
                ServiceProcess replica = all.get((start + i) % all.size());
                if (!replica.takesTraffic()) {
                    continue;
                }
                HttpRequest.Builder request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + replica.httpPort() + exchange.getRequestURI().toString()))
                        .timeout(Duration.ofSeconds(60))
                        .method(exchange.getRequestMethod(), body.length == 0
                                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
                for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
                    if (!HOP_BY_HOP.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                        header.getValue().forEach(v -> request.header(header.getKey(), v));
                    }
                }
                HttpResponse<byte[]> response;
                try {
                    response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                } catch (ConnectException | HttpConnectTimeoutException refused) {
                    continue; // not listening: the next replica
                } catch (IOException e) {
                    if (e.getCause() instanceof ConnectException) {
                        continue;
                    }
                    failedUpstream.incrementAndGet();
                    answer(exchange, 502, "upstream " + replica.name() + " failed: " + e);
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    answer(exchange, 503, "interrupted");
                    return;
                }
                response.headers().map().forEach((key, values) -> {
                    if (!HOP_BY_HOP.contains(key.toLowerCase(Locale.ROOT)) && !key.startsWith(":")) {
                        exchange.getResponseHeaders().put(key, values);
                    }
                });
                byte[] out = response.body();
                exchange.sendResponseHeaders(response.statusCode(), out.length == 0 ? -1 : out.length);
                try (OutputStream o = exchange.getResponseBody()) {
                    o.write(out);
                }
                return;
            }
            unavailable.incrementAndGet();
            answer(exchange, 503, "no replica available");
        }
    }

    private static void answer(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().put("Content-Type", List.of("text/plain; charset=utf-8"));
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream o = exchange.getResponseBody()) {
            o.write(bytes);
        }
    }
}
