package com.shop.orders.sandbox.wechat;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;

import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.shop.orders.sandbox.ErrorAnswer;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.PemKeyCertOptions;

/**
 * The WeChat Pay sandbox outside the application, as {@code sandbox.alipay.SandboxServer} is Alipay's: the same
 * APIs (Native prepay, query, close, refunds, certificates), buyer, fault knobs, merchant console and page that dev
 * and test builds serve in-app, made of the same classes, on an HTTP server of its own, for the packaged
 * (production) service, which has no sandbox. Tests run it in their JVM, the multi-process suites as a process
 * ({@link #main}).
 *
 * <p>A Vert.x server, not the JDK's: the JDK HttpServer rewrites header names ({@code Wechatpay-timestamp}), and the
 * official SDK looks the Wechatpay-* headers up case-sensitively; Vert.x writes them over HTTP/1.1 as given.
 *
 * <p>Endpoints under {@code /sandbox/wechat}: WeChat's {@code /v3/pay/transactions/native},
 * {@code /v3/pay/transactions/out-trade-no/{no}[/close]}, {@code /v3/refund/domestic/refunds[/{no}]},
 * {@code /v3/certificates}, {@code /v3/bill/tradebill} and its {@code /v3/billdownload/file};
 * {@code POST /buyer/{scan,pay}}, {@code GET|PUT|DELETE /faults},
 * {@code POST /merchant/refund}, {@code POST /merchant/refund/resolve}, {@code GET /trades[/{outTradeNo}]},
 * {@code GET /calls?method=&number=} and the page at {@code GET /sandbox/wechat}.
 */
public final class WechatSandboxServer implements AutoCloseable {

    private static final String ROOT = WechatGateway.PATH_PREFIX;
    private static final String TRANSACTIONS = ROOT + "/v3/pay/transactions";
    private static final String OUT_TRADE_NO = TRANSACTIONS + "/out-trade-no/";
    private static final String REFUNDS = ROOT + "/v3/refund/domestic/refunds";
    private static final String AUTHORIZATION = "Authorization";
    private static final String JSON_TYPE = "application/json";

    private final Vertx vertx;
    private final HttpServer server;
    private final boolean https;
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final WechatSandboxConfig config;
    private final WechatSandboxKeys keys = new WechatSandboxKeys();
    private final WechatTrades trades = new WechatTrades();
    private final WechatFaults faults;
    private final WechatNotifier notifier;
    private final WechatGateway gateway;
    private final WechatRefunds refunds;
    private final WechatGatewayResource gatewayApi;
    private final WechatRefundResource refundApi;
    private final WechatCertificatesResource certificatesApi;
    private final WechatBillResource billApi;
    private final WechatBuyerResource buyerApi;
    private final WechatFaultsResource faultsApi;
    private final WechatMerchantResource merchantApi;
    private final WechatSandboxPageResource page;

    private WechatSandboxServer(int port, TlsFiles tls, Map<String, String> settings) {
        // The mapping's own defaults only: a test profile's overrides (shop.wechat-sandbox.*) are system properties
        // while that profile runs, and must not change a sandbox started in the same JVM.
        SmallRyeConfig mapped = new SmallRyeConfigBuilder()
                .withConverter(java.time.Duration.class, 200, new DurationConverter())
                .withMapping(WechatSandboxConfig.class)
                .withDefaultValues(settings)
                .build();
        this.config = mapped.getConfigMapping(WechatSandboxConfig.class);
        this.faults = new WechatFaults(config);
        WechatSignedHeaders signed = new WechatSignedHeaders(keys, faults);
        WechatResponses responses = new WechatResponses(signed);
        WechatCalls calls = new WechatCalls(trades, faults, keys, config);
        this.notifier = new WechatNotifier(keys, signed, faults, config, tls == null ? null : tls.notifyTrust());
        this.gateway = new WechatGateway(trades, calls, config, notifier);
        this.refunds = new WechatRefunds(trades, calls, notifier, config, faults);
        this.gatewayApi = new WechatGatewayResource(gateway, responses);
        this.refundApi = new WechatRefundResource(refunds, responses);
        this.certificatesApi = new WechatCertificatesResource(new WechatCertificates(calls, faults, keys), responses);
        this.billApi = new WechatBillResource(new WechatTradeBills(trades, faults, calls, config), responses);
        this.buyerApi = new WechatBuyerResource(trades, gateway);
        this.faultsApi = new WechatFaultsResource(faults);
        this.merchantApi = new WechatMerchantResource(refunds);
        this.page = new WechatSandboxPageResource(trades, faults, keys);
        // Worker threads for the calls: latency and held-answer knobs sleep on them, as in-app on Quarkus's workers.
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(64));
        HttpServerOptions options = new HttpServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true);
        if (tls != null) {
            // HTTP/1.1 over TLS, as api.mch.weixin.qq.com: no ALPN, so no HTTP/2 and its lower-cased names.
            options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                    .setCertPath(tls.certificatePem().toString()).setKeyPath(tls.keyPem().toString()));
        }
        this.https = tls != null;
        this.server = vertx.createHttpServer(options).requestHandler(this::handle);
        await(server.listen().toCompletionStage().toCompletableFuture());
    }

    /**
     * The server's certificate and key (PEM files) and what the notifier trusts when it posts to an https notify URL
     * (null: the JVM's default).
     */
    public record TlsFiles(Path certificatePem, Path keyPem, SSLContext notifyTrust) {
    }

    /**
     * WeChat's minute between two refunds of one trade, shortened for the system tests that refund a trade several
     * times: the sandbox's setting ({@link #start(int, Map)}) and, a little longer as production's margin, the
     * service's {@code shop.wechat.refund-interval}.
     */
    public static final Map<String, String> QUICK_REFUNDS = Map.of("shop.wechat-sandbox.refund-interval", "500ms");
    public static final String SERVICE_REFUND_INTERVAL = "700ms";

    /** Starts on {@code port} (0: any free port), over plain HTTP. */
    public static WechatSandboxServer start(int port) {
        return start(port, Map.of());
    }

    /** {@link #start(int)} with sandbox settings ({@code shop.wechat-sandbox.*}) over the mapping's defaults. */
    public static WechatSandboxServer start(int port, Map<String, String> settings) {
        return new WechatSandboxServer(port, null, settings);
    }

    /** Starts on {@code port} (0: any free port), serving HTTPS with the given certificate, as WeChat's API host. */
    public static WechatSandboxServer startHttps(int port, TlsFiles tls) {
        return new WechatSandboxServer(port, java.util.Objects.requireNonNull(tls), Map.of());
    }

    /** Where the service's SDK is sent instead of https://api.mch.weixin.qq.com (WeChat's paths go after it). */
    public String baseUrl() {
        return (https ? "https" : "http") + "://127.0.0.1:" + server.actualPort() + ROOT;
    }

    public int port() {
        return server.actualPort();
    }

    public String mchid() {
        return config.mchid();
    }

    public String appid() {
        return config.appid();
    }

    public WechatSandboxKeys keys() {
        return keys;
    }

    public WechatTrades trades() {
        return trades;
    }

    public WechatFaults faults() {
        return faults;
    }

    /**
     * The service's WeChat settings for this sandbox as environment variables: the merchant (number, app, certificate
     * serial and private key), the APIv3 key, and WeChat Pay's public key with its ID (public-key mode). Where WeChat
     * is reached ({@link #baseUrl()}) and the notify URL are the caller's to give.
     */
    public Map<String, String> serviceKeys() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("WECHAT_MCHID", config.mchid());
        env.put("WECHAT_APPID", config.appid());
        env.put("WECHAT_MERCHANT_SERIAL", keys.merchantSerial());
        env.put("WECHAT_PRIVATE_KEY", keys.merchantPrivateKeyPem());
        env.put("WECHAT_API_V3_KEY", keys.apiV3Key());
        env.put("WECHAT_PUBLIC_KEY_ID", keys.publicKeyId());
        env.put("WECHAT_PUBLIC_KEY", keys.platformPublicKeyPem());
        return env;
    }

    /**
     * {@link #serviceKeys()} under the service's setting names (WECHAT_API_V3_KEY is shop.wechat.api-v3-key), and
     * where WeChat is reached, for a service configured by properties instead of its environment. The verification
     * mode and the notify URLs are the caller's to give.
     */
    public Map<String, String> serviceSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        serviceKeys().forEach((variable, value) -> settings.put("shop." + variable.toLowerCase(Locale.ROOT)
                .replaceFirst("_", ".").replace('_', '-'), value));
        settings.put("shop.wechat.base-url", baseUrl());
        return settings;
    }

    /** The buyer scans the code: the trade, or empty for an unknown code; refused as the wallet refuses it. */
    public Optional<WechatTradeView> scan(String codeUrl) {
        return trades.byCodeUrl(codeUrl).map(trade -> {
            trade.scan(Instant.now());
            return trade.view();
        });
    }

    /**
     * The buyer pays the code, and the notify starts on its schedule, as {@code POST /buyer/pay}: the trade, or empty
     * for an unknown code; {@link WechatBuyerRefused} with the wallet's reason for a closed, paid or expired one.
     */
    public Optional<WechatTradeView> pay(String codeUrl) {
        return trades.byCodeUrl(codeUrl).map(trade -> {
            trade.pay(Instant.now());
            gateway.paid(trade);
            return trade.view();
        });
    }

    /**
     * The buyer pays the code but WeChat's notify of it is lost (never sent): only a query or a close finds the
     * payment. Same answers as {@link #pay}.
     */
    public Optional<WechatTradeView> payWithoutNotify(String codeUrl) {
        return trades.byCodeUrl(codeUrl).map(trade -> {
            trade.pay(Instant.now());
            return trade.view();
        });
    }

    /**
     * The payment notify of the trade {@code outTradeNo}, signed and encrypted as {@link #pay} sends it, but not sent:
     * a benchmark sends it at a rate of its own. For a trade the buyer paid ({@link #payWithoutNotify}), the notify of
     * that payment; for an unpaid one, the notify WeChat would send if the buyer paid it now, without paying it.
     * Empty for an unknown trade.
     */
    public Optional<WechatNotifier.Notify> paymentNotify(String outTradeNo) {
        return trades.trade(outTradeNo).map(trade -> {
            WechatTradeView paid = trade.transactionId() != null ? trade : new WechatTradeView(trade.outTradeNo(),
                    trade.description(), trade.total(), "SUCCESS", trade.codeUrl(), trade.expiresAt(),
                    "42000" + Math.abs(outTradeNo.hashCode()) + System.nanoTime(), Instant.now(), 0, false, 0,
                    List.of());
            return notifier.paymentNotify(WechatAnswer.write(gateway.transaction(paid)));
        });
    }

    @Override
    public void close() {
        await(server.close().toCompletionStage().toCompletableFuture());
        notifier.stop();
        refunds.stop();
        await(vertx.close().toCompletionStage().toCompletableFuture());
    }

    /**
     * {@code WechatSandboxServer <port> <keys file>}: serves until killed; writes what the services need to the file,
     * a {@code NAME=value} line each ({@link #serviceKeys()}, PEM keys on one line, which the SDK's PEM reader takes,
     * and SHOP_WECHAT_BASE_URL).
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        WechatSandboxServer sandbox = start(Integer.parseInt(args[0]));
        Path keysFile = Path.of(args[1]);
        StringBuilder variables = new StringBuilder();
        sandbox.serviceKeys().forEach((name, value) -> variables.append(name).append('=')
                .append(value.replace("\n", "")).append('\n'));
        variables.append("SHOP_WECHAT_BASE_URL=").append(sandbox.baseUrl()).append('\n');
        Files.writeString(keysFile, variables);
        System.out.println("WeChat Pay sandbox at " + sandbox.baseUrl() + ", keys in " + keysFile);
        Runtime.getRuntime().addShutdownHook(new Thread(sandbox::close));
        Thread.currentThread().join();
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> vertx.<Response>executeBlocking(() -> route(request, body.toString(
                StandardCharsets.UTF_8)), false).onComplete(done -> {
                    if (done.succeeded()) {
                        send(request.response(), done.result());
                    } else {
                        send(request.response(), ErrorAnswer.of(Response.Status.INTERNAL_SERVER_ERROR,
                                String.valueOf(done.cause())));
                    }
                }));
    }

    /** The in-app resource method for the request, called as JAX-RS would call it. */
    private Response route(HttpServerRequest request, String body) {
        try {
            return call(request, body);
        } catch (IOException malformed) {
            // What Quarkus answers for a body its JSON reader cannot take.
            return ErrorAnswer.of(Response.Status.BAD_REQUEST, "malformed JSON: " + malformed.getMessage());
        }
    }

    private Response call(HttpServerRequest request, String body) throws IOException {
        String path = request.path();
        String method = request.method().name();
        String authorization = request.getHeader(AUTHORIZATION);
        String serial = request.getHeader(WechatGatewayResource.SERIAL);
        if (path.equals(TRANSACTIONS + "/native") && method.equals("POST")) {
            return gatewayApi.prepay(authorization, serial, body, request);
        }
        if (path.startsWith(OUT_TRADE_NO) && path.endsWith("/close") && method.equals("POST")) {
            String outTradeNo = decoded(path.substring(OUT_TRADE_NO.length(), path.length() - "/close".length()));
            return gatewayApi.close(authorization, serial, outTradeNo, body, request);
        }
        if (path.startsWith(OUT_TRADE_NO) && method.equals("GET")) {
            return gatewayApi.query(authorization, serial, decoded(path.substring(OUT_TRADE_NO.length())),
                    request.getParam("mchid"), request);
        }
        if (path.equals(REFUNDS) && method.equals("POST")) {
            return refundApi.create(authorization, serial, body, request);
        }
        if (path.startsWith(REFUNDS + "/") && method.equals("GET")) {
            return refundApi.query(authorization, serial, decoded(path.substring(REFUNDS.length() + 1)), request);
        }
        if (path.equals(ROOT + "/v3/bill/tradebill") && method.equals("GET")) {
            return billApi.tradeBill(authorization, serial, request.getParam("bill_date"),
                    request.getParam("bill_type"), request.getParam("tar_type"), request);
        }
        if (path.equals(ROOT + "/v3/billdownload/file") && method.equals("GET")) {
            return billApi.download(authorization, request.getParam("token"), request);
        }
        if (path.equals(ROOT + "/v3/certificates") && method.equals("GET")) {
            return certificatesApi.download(authorization, request.getParam("algorithm_type"), request);
        }
        return sandboxApi(path, method, body, request);
    }

    /** The sandbox's own endpoints: buyer, knobs, merchant console, trades and the page. */
    private Response sandboxApi(String path, String method, String body, HttpServerRequest request)
            throws IOException {
        switch (method + " " + path) {
            case "POST " + ROOT + "/buyer/scan":
                return buyerApi.scan(read(body, WechatBuyerResource.CodeUrlRequest.class));
            case "POST " + ROOT + "/buyer/pay":
                return buyerApi.pay(read(body, WechatBuyerResource.CodeUrlRequest.class));
            case "GET " + ROOT + "/faults":
                return Response.ok(faultsApi.current()).build();
            case "DELETE " + ROOT + "/faults":
                return Response.ok(faultsApi.reset()).build();
            case "PUT " + ROOT + "/faults":
                return faultsApi.change(read(body, WechatFaultSettings.class));
            case "POST " + ROOT + "/merchant/refund":
                return merchantApi.refund(read(body, WechatMerchantResource.RefundRequest.class));
            case "POST " + ROOT + "/merchant/refund/resolve":
                return merchantApi.resolve(read(body, WechatMerchantResource.ResolveRequest.class));
            case "GET " + ROOT + "/trades", "GET " + ROOT + "/trades/":
                return Response.ok(trades.trades()).build();
            case "GET " + ROOT + "/calls":
                return Response.ok(Map.of("calls", trades.calls(String.valueOf(request.getParam("method")),
                        String.valueOf(request.getParam("number"))))).build();
            case "GET " + ROOT, "GET " + ROOT + "/":
                return Response.ok(page.page()).type("text/html; charset=utf-8").build();
            default:
                break;
        }
        if (path.startsWith(ROOT + "/trades/") && method.equals("GET")) {
            String outTradeNo = decoded(path.substring((ROOT + "/trades/").length()));
            return trades.trade(outTradeNo).map(trade -> Response.ok(trade).build())
                    .orElseGet(() -> ErrorAnswer.of(Response.Status.NOT_FOUND, "no trade " + outTradeNo));
        }
        return ErrorAnswer.of(Response.Status.NOT_FOUND, "no such sandbox endpoint: " + method + " " + path);
    }

    /** A JSON body as the resource takes it; null for an empty one, which the resources refuse as in-app. */
    private <T> T read(String body, Class<T> type) throws IOException {
        return body.isBlank() ? null : json.readValue(body, type);
    }

    /** A path segment as JAX-RS's @PathParam gives it: percent-decoded ("%7C" is "|"), a "+" kept. */
    private static String decoded(String segment) {
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The resource's answer, its header names exactly as the resource wrote them. */
    private void send(HttpServerResponse response, Response answer) {
        byte[] body;
        try {
            Object entity = answer.getEntity();
            body = entity == null ? new byte[0]
                    : entity instanceof byte[] bytes ? bytes
                    : entity instanceof String text ? text.getBytes(StandardCharsets.UTF_8)
                    : json.writeValueAsBytes(entity);
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the sandbox's answer", e);
        }
        response.setStatusCode(answer.getStatus());
        answer.getStringHeaders().forEach((name, values) -> values.forEach(value -> response.headers().add(name,
                value)));
        if (body.length > 0 && !response.headers().contains("Content-Type")) {
            response.putHeader("Content-Type", JSON_TYPE);
        }
        response.end(Buffer.buffer(body));
    }

    private static <T> T await(java.util.concurrent.CompletableFuture<T> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("WeChat sandbox server did not start or stop", e);
        }
    }
}
