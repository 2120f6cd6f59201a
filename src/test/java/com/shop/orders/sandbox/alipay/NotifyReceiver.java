package com.shop.orders.sandbox.alipay;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A merchant's notify endpoint on a free local port: records each form it gets, answers "failure" for the first few. */
final class NotifyReceiver implements AutoCloseable {

    /** One received notify: its decoded form fields and when it arrived. */
    record Received(Map<String, String> fields, long atNanos) {
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft;

    NotifyReceiver(int failuresFirst) throws IOException {
        this.failuresLeft = new AtomicInteger(failuresFirst);
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/notify", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                received.add(new Received(decode(new String(in.readAllBytes(), StandardCharsets.UTF_8)), System.nanoTime()));
            }
            byte[] answer = (failuresLeft.getAndDecrement() > 0 ? "failure" : "success").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/notify";
    }

    List<Received> received() {
        return received;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private static Map<String, String> decode(String form) {
        Map<String, String> fields = new TreeMap<>();
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            fields.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return fields;
    }
}
