package com.shop.orders.sandbox.alipay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import javax.net.ssl.SSLContext;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.shop.orders.payment.alipay.SignMode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * The Alipay sandbox outside the application: the same gateway, buyer and fault knobs that dev and test
 * builds serve in-app, on a JDK HTTP server of its own, for the packaged (production) service, which has no
 * sandbox. Integration tests run it in their JVM; the benchmark and the multi-instance fault suite run it
 * as a process ({@link #main}) and give its keys to the services they start.
 *
 * <p>Endpoints: {@code POST /sandbox/alipay/gateway.do}, {@code POST /sandbox/alipay/buyer/{scan,pay}},
 * {@code GET|PUT|DELETE /sandbox/alipay/faults}, {@code GET /sandbox/alipay/trades[/{outTradeNo}]},
 * {@code GET /sandbox/alipay/calls?method=&outTradeNo=}, {@code GET /sandbox/alipay/bills/{token}} (trade bill links).
 */
public final class SandboxServer implements AutoCloseable {

    public static final String APP_ID = "2021000000000001";
    private static final String ROOT = "/sandbox/alipay";

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newFixedThreadPool(16);
    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor();
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private final SandboxKeys keys = new SandboxKeys();
    private final SandboxTrades trades = new SandboxTrades();
    private final SandboxFaults faults = new SandboxFaults();
    private final SandboxGateway gateway;
    private final TradeBills bills;
    private final SandboxBuyer buyer;
    private final NotifySender notifier;

    private final SignMode signMode;

    private SandboxServer(HttpServer server, SignMode signMode) {
        // Settings from the mapping's own defaults, overridable with system properties (shop.sandbox.*).
        SmallRyeConfig config = new SmallRyeConfigBuilder().addDefaultSources()
                .withConverter(java.time.Duration.class, 200, new DurationConverter())
                .withMapping(SandboxConfig.class)
                .build();
        SandboxConfig settings = config.getConfigMapping(SandboxConfig.class);
        TradeMethods methods = new TradeMethods(trades, settings);
        this.signMode = signMode;
        this.bills = new TradeBills(trades, faults, settings);
        this.gateway = new SandboxGateway(keys, trades, methods, faults, settings, bills, APP_ID, signMode);
        this.notifier = new NotifySender(keys, faults, settings, APP_ID);
        this.buyer = new SandboxBuyer(trades, notifier);
        this.server = server;
        server.setExecutor(handlers);
        server.createContext(ROOT + "/gateway.do", this::gateway);
        server.createContext(ROOT + "/buyer/", this::buyer);
        server.createContext(ROOT + TradeBills.DOWNLOAD_PATH, this::bill);
        server.createContext(ROOT + "/faults", this::faults);
        server.createContext(ROOT + "/trades", this::trades);
        server.createContext(ROOT + "/calls", this::calls);
        server.start();
    }

    /** Starts on {@code port} (0: any free port), for an app in public-key mode. */
    public static SandboxServer start(int port) throws IOException {
        return start(port, SignMode.PUBLIC_KEY);
    }

    /** Starts on {@code port} (0: any free port), for an app in the given sign mode. */
    public static SandboxServer start(int port, SignMode signMode) throws IOException {
        // Without it the JDK server delays small answers by 40 ms (Nagle).
        System.setProperty("sun.net.httpserver.nodelay", "true");
        return new SandboxServer(HttpServer.create(address(port), 256), signMode);
    }

    /**
     * Starts on {@code port} (0: any free port), serving HTTPS with the certificate of {@code tls}, as Alipay does,
     * for an app in the given sign mode.
     */
    public static SandboxServer startHttps(int port, SSLContext tls, SignMode signMode) throws IOException {
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpsServer server = HttpsServer.create(address(port), 256);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        return new SandboxServer(server, signMode);
    }

    private static InetSocketAddress address(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    public String gatewayUrl() {
        return baseUrl() + "/gateway.do";
    }

    public String baseUrl() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return scheme + "://127.0.0.1:" + server.getAddress().getPort() + ROOT;
    }

    public SandboxKeys keys() {
        return keys;
    }

    /**
     * The service's Alipay settings for this sandbox as environment variables: the merchant's private key and, by
     * the sign mode, Alipay's public key or the three certificates (as content).
     */
    public Map<String, String> serviceKeys() {
        Map<String, String> env = new java.util.LinkedHashMap<>();
        env.put("ALIPAY_PRIVATE_KEY", keys.merchantPrivateKey());
        if (signMode == SignMode.CERTIFICATE) {
            env.put("ALIPAY_SIGN_MODE", "certificate");
            env.put("ALIPAY_APP_CERT", keys.appCertificate());
            env.put("ALIPAY_CERT", keys.alipayCertificate());
            env.put("ALIPAY_ROOT_CERT", keys.rootCertificate());
        } else {
            env.put("ALIPAY_PUBLIC_KEY", keys.alipayPublicKey());
        }
        return env;
    }

    public SandboxTrades trades() {
        return trades;
    }

    public SandboxFaults faults() {
        return faults;
    }

    public SandboxBuyer buyer() {
        return buyer;
    }

    /**
     * The buyer pays this QR code, but Alipay's notify of it is lost (never sent): only a query or a close
     * finds the payment. Same answers as {@link SandboxBuyer#pay}.
     */
    public java.util.Optional<TradeSnapshot> payWithoutNotify(String qrCode) {
        return trades.byQrCode(qrCode).map(trade -> {
            java.time.Instant now = java.time.Instant.now();
            trade.pay(now);
            return trade.snapshot(now);
        });
    }

    /**
     * Sends the payment notify of a paid trade once more, from the start of the retry schedule (a duplicate:
     * Alipay repeats notifies it believes unanswered). False when there is no such paid trade.
     */
    public boolean resendNotify(String outTradeNo) {
        var trade = trades.byOutTradeNo(outTradeNo);
        if (trade.isEmpty() || trade.get().snapshot(java.time.Instant.now()).paidAt() == null) {
            return false;
        }
        notifier.paymentMade(trade.get());
        return true;
    }

    @Override
    public void close() {
        server.stop(0);
        notifier.stop();
        delays.shutdownNow();
        handlers.shutdownNow();
    }

    /**
     * {@code SandboxServer <port> <keys file>}: serves until killed; writes the keys the services need to the
     * file as shell variables (ALIPAY_PRIVATE_KEY, ALIPAY_PUBLIC_KEY, ALIPAY_GATEWAY_URL, ALIPAY_APP_ID).
     */
    public static void main(String[] args) throws Exception {
        SandboxServer sandbox = start(Integer.parseInt(args[0]));
        Path keysFile = Path.of(args[1]);
        StringBuilder variables = new StringBuilder();
        sandbox.serviceKeys().forEach((name, value) -> variables.append(name).append('=').append(value).append('\n'));
        variables.append("ALIPAY_GATEWAY_URL=").append(sandbox.gatewayUrl()).append('\n');
        variables.append("ALIPAY_APP_ID=").append(APP_ID).append('\n');
        Files.writeString(keysFile, variables);
        System.out.println("Alipay sandbox at " + sandbox.gatewayUrl() + ", keys in " + keysFile);
        Runtime.getRuntime().addShutdownHook(new Thread(sandbox::close));
        Thread.currentThread().join();
    }

    private void gateway(HttpExchange exchange) throws IOException {
        byte[] body = read(exchange);
        GatewayReply reply = gateway.handle(exchange.getRequestURI().getRawQuery(), body, baseUrl());
        Runnable send = () -> answer(exchange, reply.httpStatus(), reply.contentType(), reply.body());
        if (reply.delay().isZero()) {
            send.run();
        } else {
            delays.schedule(send, reply.delay().toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void bill(HttpExchange exchange) throws IOException {
        String token = exchange.getRequestURI().getPath().substring((ROOT + TradeBills.DOWNLOAD_PATH).length());
        java.util.Optional<byte[]> zip = bills.download(token);
        if (zip.isEmpty()) {
            answer(exchange, 404, "text/plain;charset=utf-8", "no such bill, or its link has expired".getBytes(StandardCharsets.UTF_8));
        } else {
            answer(exchange, 200, "application/zip", zip.get());
        }
    }

    private void buyer(HttpExchange exchange) throws IOException {
        String action = exchange.getRequestURI().getPath().substring((ROOT + "/buyer/").length());
        Function<String, java.util.Optional<TradeSnapshot>> act = switch (action) {
            case "scan" -> buyer::scan;
            case "pay" -> buyer::pay;
            default -> null;
        };
        if (act == null || !"POST".equals(exchange.getRequestMethod())) {
            answerJson(exchange, 404, Map.of("error", "no such buyer action"));
            return;
        }
        Map<?, ?> request = json.readValue(read(exchange), Map.class);
        Object qrCode = request.get("qrCode");
        if (!(qrCode instanceof String code) || code.isBlank()) {
            answerJson(exchange, 400, Map.of("error", "qrCode is required"));
            return;
        }
        try {
            var trade = act.apply(code.trim());
            if (trade.isPresent()) {
                answerJson(exchange, 200, trade.get());
            } else {
                answerJson(exchange, 404, Map.of("error", "unknown QR code"));
            }
        } catch (BuyerActionRefused refused) {
            answerJson(exchange, 409, Map.of("error", refused.getMessage()));
        }
    }

    private void faults(HttpExchange exchange) throws IOException {
        switch (exchange.getRequestMethod()) {
            case "GET" -> answerJson(exchange, 200, FaultSettings.of(faults));
            case "DELETE" -> {
                faults.reset();
                answerJson(exchange, 200, FaultSettings.of(faults));
            }
            case "PUT" -> {
                try {
                    json.readValue(read(exchange), FaultSettings.class).applyTo(faults);
                    answerJson(exchange, 200, FaultSettings.of(faults));
                } catch (IllegalArgumentException | IOException e) {
                    answerJson(exchange, 400, Map.of("error", String.valueOf(e.getMessage())));
                }
            }
            default -> answerJson(exchange, 405, Map.of("error", "GET, PUT or DELETE"));
        }
    }

    private void trades(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.equals(ROOT + "/trades") || path.equals(ROOT + "/trades/")) {
            answerJson(exchange, 200, trades.trades());
            return;
        }
        String outTradeNo = path.substring((ROOT + "/trades/").length());
        var trade = trades.trade(outTradeNo);
        if (trade.isPresent()) {
            answerJson(exchange, 200, trade.get());
        } else {
            answerJson(exchange, 404, Map.of("error", "no trade " + outTradeNo));
        }
    }

    private void calls(HttpExchange exchange) throws IOException {
        Map<String, String> query = new java.util.HashMap<>();
        FormEncoding.decodeInto(exchange.getRequestURI().getRawQuery(), StandardCharsets.UTF_8, query);
        answerJson(exchange, 200, Map.of("calls", trades.calls(query.get("method"), query.get("outTradeNo"))));
    }

    private void answerJson(HttpExchange exchange, int status, Object body) throws IOException {
        answer(exchange, status, "application/json", json.writeValueAsBytes(body));
    }

    private static void answer(HttpExchange exchange, int status, String contentType, byte[] body) {
        try (OutputStream out = exchange.getResponseBody()) {
            exchange.getResponseHeaders().put("Content-Type", List.of(contentType));
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            out.write(body);
        } catch (IOException e) {
            // the client went away
        } finally {
            exchange.close();
        }
    }

    private static byte[] read(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            return in.readAllBytes();
        }
    }
}
