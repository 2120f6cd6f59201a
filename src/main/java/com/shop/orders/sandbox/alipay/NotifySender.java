package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Alipay's asynchronous payment notification: a signed form POST to the trade's notify_url, repeated on
 * the configured schedule until the merchant answers exactly "success"; sent twice per attempt when the knob
 * says so. Nothing here blocks a caller: sends are asynchronous and waits are timers.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class NotifySender {

    private static final Logger LOG = Logger.getLogger(NotifySender.class);
    /** Alipay's notify signature covers every field but these two. */
    private static final Set<String> NOT_SIGNED = Set.of("sign", "sign_type");

    private final SandboxKeys keys;
    private final SandboxFaults faults;
    private final List<Duration> retrySchedule;
    private final Duration attemptTimeout;
    private final String appId;
    private final ScheduledExecutorService timers;
    private final ExecutorService httpCallbacks;
    private final HttpClient http;

    public NotifySender(SandboxKeys keys, SandboxFaults faults, SandboxConfig config,
                        @ConfigProperty(name = "shop.alipay.app-id", defaultValue = "2021000000000001") String appId) {
        this.keys = keys;
        this.faults = faults;
        this.retrySchedule = List.copyOf(config.notifyRetrySchedule());
        this.attemptTimeout = config.notifyTimeout();
        this.appId = appId;
        this.timers = Executors.newSingleThreadScheduledExecutor(daemon("sandbox-notify-timer"));
        this.httpCallbacks = Executors.newCachedThreadPool(daemon("sandbox-notify-http"));
        // plain HTTP/1.1 like Alipay's notifier, not the JDK's default h2c upgrade attempt
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpCallbacks)
                .connectTimeout(attemptTimeout).build();
    }

    /** Starts delivering the payment notify of a trade that was just paid; a trade without notify_url gets none. */
    void paymentMade(SandboxTrade trade) {
        String notifyUrl = trade.snapshot(Instant.now()).notifyUrl();
        if (notifyUrl == null || notifyUrl.isEmpty()) {
            return;
        }
        schedule(() -> attempt(trade, notifyUrl, 0), faults.notifyDelay());
    }

    @PreDestroy
    void stop() {
        timers.shutdownNow();
        httpCallbacks.shutdownNow();
    }

    private void attempt(SandboxTrade trade, String notifyUrl, int retriesDone) {
        if (trade.discarded() || faults.notifiesDropped()) {
            return;
        }
        URI target;
        try {
            target = URI.create(notifyUrl);
        } catch (IllegalArgumentException e) {
            LOG.warnf("notify of %s not sent: notify_url %s is no URL", trade.outTradeNo, notifyUrl);
            return;
        }
        HttpRequest request = HttpRequest.newBuilder(target)
                .timeout(attemptTimeout)
                .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(FormEncoding.encode(signedFields(trade), StandardCharsets.UTF_8)))
                .build();
        if (faults.notifiesDuplicated()) {
            // the copy's answer is not awaited: the attempt below decides acknowledgement and retries
            trade.recordNotifyAttempt();
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
        }
        trade.recordNotifyAttempt();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).whenComplete((response, failure) -> {
            if (failure == null && response.statusCode() == 200 && "success".equals(response.body())) {
                trade.acknowledgeNotify();
                return;
            }
            LOG.debugf("notify of %s not acknowledged (%s)", trade.outTradeNo,
                    failure != null ? failure.toString() : response.statusCode() + " " + abbreviate(response.body()));
            if (retriesDone < retrySchedule.size()) {
                schedule(() -> attempt(trade, notifyUrl, retriesDone + 1), retrySchedule.get(retriesDone));
            }
        });
    }

    /** The notify form, signed with Alipay's key the way AlipaySignature.rsaCheckV1 verifies it. */
    Map<String, String> signedFields(SandboxTrade trade) {
        TradeSnapshot t = trade.snapshot(Instant.now());
        String amount = Money.format(t.totalAmount());
        Map<String, String> fields = new TreeMap<>();
        fields.put("notify_time", AlipayTime.format(Instant.now()));
        fields.put("notify_type", "trade_status_sync");
        fields.put("notify_id", trade.notifyId);
        fields.put("app_id", appId);
        fields.put("auth_app_id", appId);
        fields.put("charset", "utf-8");
        fields.put("version", "1.0");
        fields.put("trade_no", t.tradeNo());
        fields.put("out_trade_no", t.outTradeNo());
        fields.put("trade_status", SandboxTradeStatus.TRADE_SUCCESS.name());
        fields.put("total_amount", amount);
        fields.put("receipt_amount", amount);
        fields.put("invoice_amount", amount);
        fields.put("buyer_pay_amount", amount);
        fields.put("point_amount", "0.00");
        fields.put("buyer_id", SandboxTrade.BUYER_ID);
        fields.put("buyer_logon_id", SandboxTrade.BUYER_LOGON_ID);
        fields.put("seller_id", SandboxTrade.SELLER_ID);
        fields.put("subject", t.subject());
        fields.put("gmt_create", AlipayTime.format(t.scannedAt()));
        fields.put("gmt_payment", AlipayTime.format(t.paidAt()));
        String content = AlipaySigning.contentToSign(fields, NOT_SIGNED);
        fields.put("sign", AlipaySigning.sign(content, keys.certificates().signingKey(faults.alipayCertificate()), "RSA2",
                StandardCharsets.UTF_8));
        fields.put("sign_type", "RSA2");
        return fields;
    }

    private void schedule(Runnable task, Duration delay) {
        try {
            timers.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the application is stopping: pending notifies go with it
        }
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
