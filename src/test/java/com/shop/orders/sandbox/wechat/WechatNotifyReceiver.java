package com.shop.orders.sandbox.wechat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.core.notification.RequestParam;

/**
 * A merchant's notify endpoint on a free local port: reads each notify with the SDK's NotificationParser (signature
 * verified, resource decrypted into the SDK's model: Transaction, RefundNotification), records what it read, and
 * answers 500 to the first few, 204 after.
 */
final class WechatNotifyReceiver<T> implements AutoCloseable {

    private final HttpServer server;
    private final NotificationParser parser;
    private final Class<T> resource;
    private final List<T> received = new CopyOnWriteArrayList<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft;

    WechatNotifyReceiver(NotificationParser parser, Class<T> resource, int failuresFirst) throws IOException {
        this(parser, resource, failuresFirst, null);
    }

    /** @param tls the server's context, for an https notify URL as WeChat requires; null for plain HTTP */
    WechatNotifyReceiver(NotificationParser parser, Class<T> resource, int failuresFirst, SSLContext tls)
            throws IOException {
        this.parser = parser;
        this.resource = resource;
        this.failuresLeft = new AtomicInteger(failuresFirst);
        if (tls == null) {
            this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } else {
            HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            this.server = https;
        }
        server.createContext("/notify", exchange -> {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Headers headers = exchange.getRequestHeaders();
            try {
                received.add(parser.parse(new RequestParam.Builder()
                        .serialNumber(headers.getFirst("Wechatpay-Serial"))
                        .nonce(headers.getFirst("Wechatpay-Nonce"))
                        .signature(headers.getFirst("Wechatpay-Signature"))
                        .timestamp(headers.getFirst("Wechatpay-Timestamp"))
                        .signType(headers.getFirst("Wechatpay-Signature-Type"))
                        .body(body).build(), resource));
            } catch (RuntimeException e) {
                refused.add(e.toString());
            }
            exchange.sendResponseHeaders(failuresLeft.getAndDecrement() > 0 ? 500 : 204, -1);
            exchange.close();
        });
        server.start();
    }

    String url() {
        return (server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:" + server.getAddress().getPort()
                + "/notify";
    }

    List<T> received() {
        return received;
    }

    List<String> refused() {
        return refused;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
