package com.shop.orders.sandbox.wechat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * WeChat Pay's notifies of a payment and of a refund: a JSON POST to the notify_url whose resource (the transaction,
 * the refund) is encrypted with the merchant's APIv3 key, signed with the platform key in the Wechatpay-* headers,
 * repeated on the schedule until the merchant answers 2xx (WeChat reads the status, not the body); sent twice per
 * attempt when the knob says so, as WeChat sometimes does. Nothing here blocks a caller: sends are asynchronous and
 * waits are timers.
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

    @Inject
    public WechatNotifier(WechatSandboxKeys keys, WechatSignedHeaders signed, WechatFaults faults,
            WechatSandboxConfig config) {
        this(keys, signed, faults, config, null);
    }

    /**
     * @param tls what https notify URLs are trusted by: null for the JVM's default; the sandbox outside the
     *        application gives the authority of a test's service
     */
    WechatNotifier(WechatSandboxKeys keys, WechatSignedHeaders signed, WechatFaults faults,
            WechatSandboxConfig config, SSLContext tls) {
        this.keys = keys;
        this.signed = signed;
        this.faults = faults;
        this.retrySchedule = List.copyOf(config.notifyRetrySchedule());
        this.attemptTimeout = config.notifyTimeout();
        this.timers = Executors.newSingleThreadScheduledExecutor(daemon("wechat-sandbox-notify-timer"));
        this.httpCallbacks = Executors.newCachedThreadPool(daemon("wechat-sandbox-notify-http"));
        HttpClient.Builder client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(httpCallbacks).connectTimeout(attemptTimeout);
        if (tls != null) {
            client.sslContext(tls);
        }
        this.http = client.build();
    }

    /** Starts delivering the notify of a trade that was just paid; {@code transaction} is its decrypted resource. */
    void paymentMade(WechatTrade trade, String transaction) {
        start(trade, envelope("TRANSACTION.SUCCESS", "支付成功", "transaction", transaction));
    }

    /** A notify as it is sent: the JSON body and its signed Wechatpay-* headers. */
    public record Notify(String body, Map<String, String> headers) {
    }

    /**
     * The payment notify of {@code transaction} (its decrypted resource) as the next attempt would send it, built
     * and signed now but not sent: for a benchmark that sends notifies at a rate of its own.
     */
    public Notify paymentNotify(String transaction) {
        String body = envelope("TRANSACTION.SUCCESS", "支付成功", "transaction", transaction);
        return new Notify(body, signed.notify(body));
    }

    /**
     * Starts delivering the notify of a refund that just ended (SUCCESS, CLOSED) or turned ABNORMAL; {@code resource}
     * is its decrypted resource.
     */
    void refundNotify(WechatRefund refund, WechatRefund.Status status, String resource) {
        String summary = switch (status) {
            case SUCCESS -> "退款成功";
            case CLOSED -> "退款关闭";
            case ABNORMAL -> "退款异常";
            case PROCESSING -> throw new IllegalArgumentException("no notify while processing");
        };
        start(refund, envelope("REFUND." + status.name(), summary, "refund", resource));
    }

    private void start(WechatNotified subject, String body) {
        schedule(() -> attempt(subject, body, 0), faults.notifyDelay());
    }

    @PreDestroy
    void stop() {
        timers.shutdownNow();
        httpCallbacks.shutdownNow();
    }

    private void attempt(WechatNotified subject, String body, int retriesDone) {
        if (faults.notifiesDropped()) {
            return;
        }
        URI target;
        try {
            target = URI.create(subject.notifyUrl());
        } catch (IllegalArgumentException e) {
            LOG.warnf("WeChat notify of %s not sent: notify_url %s is no URL", subject.describe(), subject.notifyUrl());
            return;
        }
        if (faults.notifiesDuplicated()) {
            send(subject, target, body);
        }
        send(subject, target, body).whenComplete((response, failure) -> {
            if (failure == null && response.statusCode() / 100 == 2) {
                subject.acknowledgeNotify();
                return;
            }
            LOG.debugf("WeChat notify of %s not acknowledged (%s)", subject.describe(),
                    failure != null ? failure.toString() : response.statusCode() + " " + response.body());
            if (retriesDone < retrySchedule.size()) {
                schedule(() -> attempt(subject, body, retriesDone + 1), retrySchedule.get(retriesDone));
            }
        });
    }

    private CompletableFuture<HttpResponse<String>> send(WechatNotified subject, URI target, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target)
                .timeout(attemptTimeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        signed.notify(body).forEach(request::header);
        subject.recordNotifyAttempt();
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * The notify's envelope with its resource encrypted inside (a fresh nonce per notify, as WeChat's); the
     * associated data is the resource's type, as in WeChat's.
     */
    private String envelope(String eventType, String summary, String originalType, String resource) {
        String resourceNonce = WechatSigning.nonce(12);
        String ciphertext = WechatSigning.encrypt(keys.apiV3Key(), originalType, resourceNonce, resource);
        Map<String, Object> encrypted = new LinkedHashMap<>();
        encrypted.put("original_type", originalType);
        encrypted.put("algorithm", "AEAD_AES_256_GCM");
        encrypted.put("ciphertext", ciphertext);
        encrypted.put("associated_data", originalType);
        encrypted.put("nonce", resourceNonce);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("id", UUID.randomUUID().toString());
        envelope.put("create_time", WechatTime.format(Instant.now()));
        envelope.put("resource_type", "encrypt-resource");
        envelope.put("event_type", eventType);
        envelope.put("summary", summary);
        envelope.put("resource", encrypted);
        return WechatAnswer.write(envelope);
    }

    private void schedule(Runnable task, Duration delay) {
        try {
            timers.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the application is stopping: pending notifies go with it
        }
    }

    /** Threads that do not keep a stopping JVM alive, for the sandbox's timers. */
    static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
