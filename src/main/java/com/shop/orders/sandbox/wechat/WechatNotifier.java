package com.shop.orders.sandbox.wechat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * WeChat Pay's payment notify: a JSON POST to the trade's notify_url whose resource is the transaction encrypted
 * with the merchant's APIv3 key, signed with the platform key in the Wechatpay-* headers, repeated on the schedule
 * until the merchant answers 2xx (WeChat reads the status, not the body); sent twice per attempt when the knob says
 * so, as WeChat sometimes does. Nothing here blocks a caller: sends are asynchronous and waits are timers.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatNotifier {

    private static final Logger LOG = Logger.getLogger(WechatNotifier.class);

    private final WechatSandboxKeys keys;
    private final WechatSignedHeaders signed;
    private final WechatFaults faults;
    private final List<Duration> retrySchedule;
    private final Duration attemptTimeout;
    private final ScheduledExecutorService timers;
    private final ExecutorService httpCallbacks;
    private final HttpClient http;

    public WechatNotifier(WechatSandboxKeys keys, WechatSignedHeaders signed, WechatFaults faults,
            WechatSandboxConfig config) {
        this.keys = keys;
        this.signed = signed;
        this.faults = faults;
        this.retrySchedule = List.copyOf(config.notifyRetrySchedule());
        this.attemptTimeout = config.notifyTimeout();
        this.timers = Executors.newSingleThreadScheduledExecutor(daemon("wechat-sandbox-notify-timer"));
        this.httpCallbacks = Executors.newCachedThreadPool(daemon("wechat-sandbox-notify-http"));
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpCallbacks)
                .connectTimeout(attemptTimeout).build();
    }

    /** Starts delivering the notify of a trade that was just paid; {@code transaction} is its decrypted resource. */
    void paymentMade(WechatTrade trade, String transaction) {
        String body = envelope(transaction);
        schedule(() -> attempt(trade, body, 0), faults.notifyDelay());
    }

    @PreDestroy
    void stop() {
        timers.shutdownNow();
        httpCallbacks.shutdownNow();
    }

    private void attempt(WechatTrade trade, String body, int retriesDone) {
        if (faults.notifiesDropped()) {
            return;
        }
        URI target;
        try {
            target = URI.create(trade.notifyUrl);
        } catch (IllegalArgumentException e) {
            LOG.warnf("WeChat notify of %s not sent: notify_url %s is no URL", trade.outTradeNo, trade.notifyUrl);
            return;
        }
        if (faults.notifiesDuplicated()) {
            send(trade, target, body);
        }
        send(trade, target, body).whenComplete((response, failure) -> {
            if (failure == null && response.statusCode() / 100 == 2) {
                trade.acknowledgeNotify();
                return;
            }
            LOG.debugf("WeChat notify of %s not acknowledged (%s)", trade.outTradeNo,
                    failure != null ? failure.toString() : response.statusCode() + " " + response.body());
            if (retriesDone < retrySchedule.size()) {
                schedule(() -> attempt(trade, body, retriesDone + 1), retrySchedule.get(retriesDone));
            }
        });
    }

    private java.util.concurrent.CompletableFuture<HttpResponse<String>> send(WechatTrade trade, URI target,
            String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target)
                .timeout(attemptTimeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        signed.notify(body).forEach(request::header);
        trade.recordNotifyAttempt();
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** The notify's envelope, the transaction encrypted inside it (a fresh nonce per notify, as WeChat's). */
    private String envelope(String transaction) {
        String resourceNonce = WechatSigning.nonce(12);
        String ciphertext = WechatSigning.encrypt(keys.apiV3Key(), "transaction", resourceNonce, transaction);
        return "{\"id\":\"" + java.util.UUID.randomUUID() + "\",\"create_time\":\"" + WechatTime.format(Instant.now())
                + "\",\"resource_type\":\"encrypt-resource\",\"event_type\":\"TRANSACTION.SUCCESS\","
                + "\"summary\":\"支付成功\",\"resource\":{\"original_type\":\"transaction\","
                + "\"algorithm\":\"AEAD_AES_256_GCM\",\"ciphertext\":\"" + ciphertext
                + "\",\"associated_data\":\"transaction\",\"nonce\":\"" + resourceNonce + "\"}}";
    }

    private void schedule(Runnable task, Duration delay) {
        try {
            timers.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the application is stopping: pending notifies go with it
        }
    }

    private static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
