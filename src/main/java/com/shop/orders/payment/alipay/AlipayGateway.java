package com.shop.orders.payment.alipay;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.alipay.api.AlipayApiException;
import com.alipay.api.AlipayClient;
import com.alipay.api.AlipayRequest;
import com.alipay.api.AlipayResponse;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.domain.AlipayDataDataserviceBillDownloadurlQueryModel;
import com.alipay.api.domain.AlipayOpenAppAlipaycertDownloadModel;
import com.alipay.api.domain.AlipayTradeCancelModel;
import com.alipay.api.domain.AlipayTradeCloseModel;
import com.alipay.api.domain.AlipayTradeFastpayRefundQueryModel;
import com.alipay.api.domain.AlipayTradePrecreateModel;
import com.alipay.api.domain.AlipayTradeQueryModel;
import com.alipay.api.domain.AlipayTradeRefundModel;
import com.alipay.api.internal.util.AlipayLogger;
import com.alipay.api.request.AlipayDataDataserviceBillDownloadurlQueryRequest;
import com.alipay.api.request.AlipayOpenAppAlipaycertDownloadRequest;
import com.alipay.api.request.AlipayTradeCancelRequest;
import com.alipay.api.request.AlipayTradeCloseRequest;
import com.alipay.api.request.AlipayTradeFastpayRefundQueryRequest;
import com.alipay.api.request.AlipayTradePrecreateRequest;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.request.AlipayTradeRefundRequest;
import com.alipay.api.response.AlipayOpenAppAlipaycertDownloadResponse;

import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.alipay.AlipayReplies.CancelResult;
import com.shop.orders.payment.alipay.AlipayReplies.CloseResult;
import com.shop.orders.order.OrderEvents;
import com.shop.orders.resilience.Bulkhead;
import com.shop.orders.resilience.Causes;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.smallrye.mutiny.Uni;

/**
 * Alipay's trade API through the official SDK. The SDK blocks on HTTP (bounded by the connect and read
 * timeouts), so every call runs on Alipay's own {@link Bulkhead} and comes back as a {@link Uni}.
 *
 * <p>In certificate mode ({@link SignMode}) every call goes through the SDK's {@code certificateExecute}: it sends
 * {@code app_cert_sn} and {@code alipay_root_cert_sn}, and verifies each answer with the certificate named by its
 * {@code alipay_cert_sn}. An SN it does not know it downloads ({@code alipay.open.app.alipaycert.download}) and
 * trusts only if it is issued under the configured root; this class then downloads it once more for
 * {@link AlipayTrust}, which verifies notifies and reports the change, and turns the SDK's refusal of an untrusted
 * certificate into a 502 with its own outcome.
 */
@ApplicationScoped
public class AlipayGateway {

    /** The wallet's name in problems and logs. */
    static final String WALLET = "Alipay";

    private static final Logger LOG = Logger.getLogger(AlipayGateway.class);
    private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
    private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    private static final AttributeKey<String> ALIPAY_CODE = AttributeKey.stringKey("alipay.code");
    private static final AttributeKey<String> ALIPAY_SUB_CODE = AttributeKey.stringKey("alipay.sub_code");
    private static final AttributeKey<String> ALIPAY_OUTCOME = AttributeKey.stringKey("alipay.outcome");
    /** Alipay's time_expire is Beijing time. */
    private static final DateTimeFormatter ALIPAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.of("Asia/Shanghai"));

    private final AlipayClient client;
    private final Bulkhead bulkhead;
    private final AlipayConfig config;
    private final MeterRegistry registry;
    private final AlipayTrust trust;
    private final Spans spans;
    private final OrderEvents events;
    private final boolean certificateMode;
    /** Certificates being downloaded for {@link AlipayTrust}, so that concurrent answers fetch each once. */
    private final ConcurrentHashMap<String, Boolean> learning = new ConcurrentHashMap<>();

    public AlipayGateway(AlipayConfig config, AlipayKeys keys, AlipayTrust trust, Spans spans, OrderEvents events,
            MeterRegistry registry) throws AlipayApiException {
        this.config = config;
        this.registry = registry;
        this.trust = trust;
        this.spans = spans;
        this.events = events;
        this.certificateMode = trust.mode() == SignMode.CERTIFICATE;
        this.bulkhead = new Bulkhead("alipay", config.threads(), config.queue(), registry);
        AlipayLogger.setNeedEnableLogger(false);
        com.alipay.api.AlipayConfig sdk = new com.alipay.api.AlipayConfig();
        sdk.setServerUrl(config.gatewayUrl());
        sdk.setAppId(config.appId());
        sdk.setPrivateKey(keys.merchantPrivateKey());
        if (certificateMode) {
            sdk.setAppCertContent(keys.appCertificate());
            sdk.setAlipayPublicCertContent(keys.alipayCertificate());
            sdk.setRootCertContent(keys.rootCertificate());
        } else {
            sdk.setAlipayPublicKey(keys.alipayPublicKey());
        }
        sdk.setFormat("json");
        sdk.setCharset("UTF-8");
        sdk.setSignType("RSA2");
        sdk.setConnectTimeout((int) config.connectTimeout().toMillis());
        sdk.setReadTimeout((int) config.readTimeout().toMillis());
        this.client = new DefaultAlipayClient(sdk);
    }

    @PreDestroy
    void stop() {
        bulkhead.shutdown(config.readTimeout().toMillis());
    }

    /** Offers a QR code for the order; Alipay itself refuses payment after {@code expiresAt}. */
    public Uni<String> precreate(String orderNo, BigDecimal amount, String subject, Instant expiresAt) {
        AlipayTradePrecreateModel model = new AlipayTradePrecreateModel();
        model.setOutTradeNo(orderNo);
        model.setTotalAmount(amount.toPlainString());
        model.setSubject(subject);
        model.setTimeExpire(ALIPAY_TIME.format(expiresAt));
        AlipayTradePrecreateRequest request = new AlipayTradePrecreateRequest();
        request.setBizModel(model);
        request.setNotifyUrl(config.notifyUrl());
        return call("precreate", orderNo, request, response -> AlipayReplies.isSuccess(response.getCode())
                ? response.getQrCode() : null);
    }

    public Uni<Trade> query(String orderNo) {
        AlipayTradeQueryModel model = new AlipayTradeQueryModel();
        model.setOutTradeNo(orderNo);
        AlipayTradeQueryRequest request = new AlipayTradeQueryRequest();
        request.setBizModel(model);
        return call("query", orderNo, request, response -> AlipayReplies.trade(orderNo, response.getCode(),
                response.getSubCode(), response.getTradeStatus(), response.getTradeNo(), response.getTotalAmount(),
                response.getSendPayDate()));
    }

    /** Closes a scanned, unpaid trade so that it can no longer be paid. */
    Uni<CloseResult> close(String orderNo) {
        AlipayTradeCloseModel model = new AlipayTradeCloseModel();
        model.setOutTradeNo(orderNo);
        AlipayTradeCloseRequest request = new AlipayTradeCloseRequest();
        request.setBizModel(model);
        return call("close", orderNo, request, response -> AlipayReplies.close(response.getCode(), response.getSubCode()));
    }

    /** Voids the order's QR code even if nobody scanned it yet; a trade paid meanwhile is refunded. */
    Uni<CancelResult> cancel(String orderNo) {
        AlipayTradeCancelModel model = new AlipayTradeCancelModel();
        model.setOutTradeNo(orderNo);
        AlipayTradeCancelRequest request = new AlipayTradeCancelRequest();
        request.setBizModel(model);
        return call("cancel", orderNo, request, response -> AlipayReplies.cancel(response.getCode(), response.getSubCode(),
                response.getAction()));
    }

    /**
     * Refunds {@code amount} of the order's trade as the refund {@code requestNo}. Calling again with the same number
     * refunds nothing more: how an answer that did not arrive is retried. Fails when the answer is not known.
     */
    public Uni<RefundAnswer> refund(String orderNo, BigDecimal amount, String requestNo) {
        AlipayTradeRefundModel model = new AlipayTradeRefundModel();
        model.setOutTradeNo(orderNo);
        model.setRefundAmount(amount.toPlainString());
        model.setOutRequestNo(requestNo);
        AlipayTradeRefundRequest request = new AlipayTradeRefundRequest();
        request.setBizModel(model);
        return call("refund", orderNo, request, response -> AlipayReplies.refundAnswer(response.getCode(), response.getSubCode(),
                response.getSubMsg()));
    }

    /**
     * Whether Alipay made the refund {@code requestNo} of the order's trade: true with its amount, false when it did
     * not (also when there is no trade at all). Fails when Alipay does not say.
     */
    public Uni<Boolean> refundMade(String orderNo, String requestNo) {
        AlipayTradeFastpayRefundQueryModel model = new AlipayTradeFastpayRefundQueryModel();
        model.setOutTradeNo(orderNo);
        model.setOutRequestNo(requestNo);
        AlipayTradeFastpayRefundQueryRequest request = new AlipayTradeFastpayRefundQueryRequest();
        request.setBizModel(model);
        return call("refund_query", orderNo, request, response -> AlipayReplies.refundMade(response.getCode(),
                response.getSubCode(), response.getRefundStatus(), response.getRefundAmount()));
    }

    /**
     * Where the trade bill of a day (Alipay's day, China time) can be downloaded for the next 30 seconds; not
     * published when Alipay has not made it yet (it does by 09:00 the next day, sometimes later).
     */
    public Uni<TradeBillLink> tradeBill(LocalDate billDate) {
        AlipayDataDataserviceBillDownloadurlQueryModel model = new AlipayDataDataserviceBillDownloadurlQueryModel();
        model.setBillType("trade");
        model.setBillDate(billDate.toString());
        AlipayDataDataserviceBillDownloadurlQueryRequest request = new AlipayDataDataserviceBillDownloadurlQueryRequest();
        request.setBizModel(model);
        return call("bill", null, request, response -> AlipayReplies.tradeBill(response.getCode(), response.getSubCode(),
                response.getBillDownloadUrl()));
    }

    /**
     * Runs the call on the bulkhead and reads its answer; an answer {@code read} cannot make sense of
     * (null) is a refusal (502) unless Alipay asked to try again; that, and a call that does not get through, is
     * unavailability (503). Each call is a client span (method, outcome and Alipay's codes only: never keys,
     * signatures, QR codes or the buyer's data) and, for an order ({@code orderNo}), an entry of its timeline.
     */
    private <R extends AlipayResponse, T> Uni<T> call(String method, String orderNo, AlipayRequest<R> request,
            Function<R, T> read) {
        return bulkhead.call(() -> Spans.run(spans.start("alipay " + method, SpanKind.CLIENT), span -> {
            long start = System.nanoTime();
            String outcome = "error";
            span.setAttribute(RPC_SYSTEM, "alipay");
            span.setAttribute(RPC_METHOD, request.getApiMethodName());
            if (orderNo != null) {
                span.setAttribute(Spans.ORDER_NO, orderNo);
            }
            try {
                R response = execute(request);
                outcome = AlipayReplies.outcome(response.getCode(), response.getSubCode());
                span.setAttribute(ALIPAY_CODE, String.valueOf(response.getCode()));
                if (response.getSubCode() != null) {
                    span.setAttribute(ALIPAY_SUB_CODE, response.getSubCode());
                }
                T answer = read.apply(response);
                if (answer == null) {
                    LOG.warnf("Alipay refused %s: %s / %s: %s", method, response.getCode(), response.getSubCode(),
                            response.getSubMsg());
                    throw AlipayReplies.answered(method, response.getCode(), response.getSubCode());
                }
                return answer;
            } catch (AlipayApiException e) {
                if (certificateMode && AlipayReplies.isUntrustedCertificate(e)) {
                    outcome = "untrusted_certificate";
                    trust.refuse("of the answer to " + method, "the SDK found it out of date or not issued under ALIPAY_ROOT_CERT");
                    throw PaymentGatewayException.untrusted(WALLET, method, e);
                }
                // Members see only "unavailable"; the operator sees why (the SDK's own words, bounded).
                LOG.warnf("Alipay call %s failed: %s", method, Causes.of(e));
                throw PaymentGatewayException.unavailable(WALLET, method, e);
            } finally {
                span.setAttribute(ALIPAY_OUTCOME, outcome);
                if (orderNo != null) {
                    events.note(orderNo, OrderEvents.Kind.ALIPAY_CALL, outcome, request.getApiMethodName());
                }
                callTimer(method, outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        })).onFailure(Bulkhead.BulkheadFullException.class).transform(full -> {
            // Refused before it reached Alipay: counted too, so that a starved bulkhead shows in the error rate.
            callTimer(method, "bulkhead_full").record(0, TimeUnit.NANOSECONDS);
            if (orderNo != null) {
                events.note(orderNo, OrderEvents.Kind.ALIPAY_CALL, "bulkhead_full", request.getApiMethodName());
            }
            return PaymentGatewayException.unavailable(WALLET, method, full);
        });
    }

    private <R extends AlipayResponse> R execute(AlipayRequest<R> request) throws AlipayApiException {
        if (!certificateMode) {
            return client.execute(request);
        }
        R response = client.certificateExecute(request);
        learnCertificateOf(response.getBody());
        return response;
    }

    /**
     * The SDK has just trusted the answer's certificate (it checked it against the root, or knew it); when it is
     * new to {@link AlipayTrust}, fetch it for the notifies. A failed fetch is tried again on the next answer.
     */
    private void learnCertificateOf(String body) {
        String sn = AlipayReplies.alipayCertSn(body);
        if (sn == null || trust.knows(sn) || learning.putIfAbsent(sn, Boolean.TRUE) != null) {
            return;
        }
        try {
            AlipayOpenAppAlipaycertDownloadModel model = new AlipayOpenAppAlipaycertDownloadModel();
            model.setAlipayCertSn(sn);
            AlipayOpenAppAlipaycertDownloadRequest download = new AlipayOpenAppAlipaycertDownloadRequest();
            download.setBizModel(model);
            AlipayOpenAppAlipaycertDownloadResponse answer = client.certificateExecute(download);
            if (!AlipayReplies.isSuccess(answer.getCode()) || answer.getAlipayCertContent() == null) {
                LOG.warnf("Alipay's certificate %s could not be downloaded: %s / %s", sn, answer.getCode(), answer.getSubCode());
                return;
            }
            String pem = new String(Base64.getMimeDecoder().decode(answer.getAlipayCertContent()),
                    StandardCharsets.US_ASCII);
            trust.learn(sn, pem);
        } catch (AlipayApiException | IllegalArgumentException e) {
            LOG.warnf("Alipay's certificate %s could not be downloaded: %s", sn, e.toString());
        } finally {
            learning.remove(sn);
        }
    }

    private Timer callTimer(String method, String outcome) {
        return Timer.builder("alipay.calls").description("Alipay API calls by method and outcome")
                .tags("method", method, "outcome", outcome)
                .serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
                        Duration.ofSeconds(3), Duration.ofSeconds(15))
                .register(registry);
    }
}
