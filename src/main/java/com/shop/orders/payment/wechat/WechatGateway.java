package com.shop.orders.payment.wechat;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.google.gson.JsonParseException;
import com.wechat.pay.java.core.exception.ServiceException;
import com.wechat.pay.java.core.exception.ValidationException;
import com.wechat.pay.java.core.exception.WechatPayException;
import com.wechat.pay.java.core.notification.NotificationParser;
import com.wechat.pay.java.service.billdownload.DigestBillEntity;
import com.wechat.pay.java.service.billdownload.model.BillType;
import com.wechat.pay.java.service.billdownload.model.GetTradeBillRequest;
import com.wechat.pay.java.service.billdownload.model.TarType;
import com.wechat.pay.java.service.payments.nativepay.model.Amount;
import com.wechat.pay.java.service.payments.nativepay.model.CloseOrderRequest;
import com.wechat.pay.java.service.payments.nativepay.model.PrepayRequest;
import com.wechat.pay.java.service.payments.nativepay.model.QueryOrderByOutTradeNoRequest;
import com.wechat.pay.java.service.refund.model.AmountReq;
import com.wechat.pay.java.service.refund.model.CreateRequest;
import com.wechat.pay.java.service.refund.model.QueryByOutRefundNoRequest;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.payment.PaymentGatewayException;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.RefundFinding;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.wechat.WechatReplies.Refusal;
import com.shop.orders.resilience.Bulkhead;
import com.shop.orders.resilience.Causes;
import com.shop.orders.tracing.Spans;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.smallrye.mutiny.Uni;

/**
 * WeChat Pay's Native payment and refund APIs through the official SDK. The SDK blocks on HTTP (bounded by the
 * connect, read and write timeouts), so every call runs on WeChat's own {@link Bulkhead} and comes back as a
 * {@link Uni}. The SDK's objects are made at the first call, on that call's thread: in certificate mode that
 * downloads the platform certificates, which must never happen on an event loop or hold up the start.
 *
 * <p>What a call comes to: WeChat's answer; an error answer the method reads as an answer (a trade that does not
 * exist, a paid trade that cannot be closed); a refusal (502); an answer under a signature or serial that does not
 * verify (502, not trusted); or an unknown outcome (503): a 5xx, 429 or SYSTEM_ERROR, a call that did not get through
 * or timed out, an answer signed more than five minutes off our clock, or one that is no JSON (an HTML error page).
 */
@ApplicationScoped
public class WechatGateway {

    /** The wallet's name in problems and logs. */
    static final String WALLET = "WeChat Pay";

    private static final Logger LOG = Logger.getLogger(WechatGateway.class);
    private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
    private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    private static final AttributeKey<String> WECHATPAY_CODE = AttributeKey.stringKey("wechatpay.code");
    private static final AttributeKey<String> WECHATPAY_OUTCOME = AttributeKey.stringKey("wechatpay.outcome");
    private static final String CNY = "CNY";

    private final WechatConfig config;
    private final WechatKeys keys;
    private final Bulkhead bulkhead;
    private final Spans spans;
    private final OrderEvents events;
    private final MeterRegistry registry;
    /** Made by the first call that gets through the build (guarded by this). */
    private WechatSdk sdk;

    public WechatGateway(WechatConfig config, WechatKeys keys, Spans spans, OrderEvents events, MeterRegistry registry) {
        this.config = config;
        this.keys = keys;
        this.spans = spans;
        this.events = events;
        this.registry = registry;
        this.bulkhead = new Bulkhead("wechat", config.threads(), config.queue(), registry);
    }

    @PreDestroy
    void stop() {
        bulkhead.shutdown(config.readTimeout().toMillis());
        closeSdk();
    }

    private synchronized void closeSdk() {
        if (sdk != null) {
            sdk.close();
        }
    }

    /** Offers a Native code for the trade (code_url); WeChat itself refuses payment after {@code timeExpire}. */
    public Uni<String> prepay(String outTradeNo, int fen, String description, String timeExpire) {
        return call("prepay", "nativepay.prepay", outTradeNo, sdk -> {
            PrepayRequest request = new PrepayRequest();
            request.setAppid(sdk.appid);
            request.setMchid(sdk.mchid);
            request.setOutTradeNo(outTradeNo);
            request.setDescription(description);
            request.setTimeExpire(timeExpire);
            request.setNotifyUrl(sdk.notifyUrl);
            Amount amount = new Amount();
            amount.setTotal(fen);
            amount.setCurrency(CNY);
            request.setAmount(amount);
            return sdk.nativePay.prepay(request);
        }, answer -> answer.getCodeUrl(), refusal -> null);
    }

    /** What WeChat knows of the trade; not found when it was never prepaid. */
    public Uni<Trade> query(String outTradeNo) {
        return call("query", "nativepay.queryOrderByOutTradeNo", outTradeNo, sdk -> {
            QueryOrderByOutTradeNoRequest request = new QueryOrderByOutTradeNoRequest();
            request.setMchid(sdk.mchid);
            request.setOutTradeNo(outTradeNo);
            return sdk.nativePay.queryOrderByOutTradeNo(request);
        }, answer -> WechatReplies.trade(outTradeNo, answer),
                refusal -> refusal.is(WechatReplies.ORDER_NOT_EXIST) ? Trade.notFound(outTradeNo) : null);
    }

    /** Closes the trade (204), or finds it paid (ORDERPAID). A number WeChat never had is as good as closed. */
    Uni<CloseResult> close(String outTradeNo) {
        return call("close", "nativepay.closeOrder", outTradeNo, sdk -> {
            CloseOrderRequest request = new CloseOrderRequest();
            request.setMchid(sdk.mchid);
            request.setOutTradeNo(outTradeNo);
            sdk.nativePay.closeOrder(request);
            return CloseResult.CLOSED;
        }, Function.identity(), refusal -> refusal.is(WechatReplies.ORDERPAID) ? CloseResult.PAID
                : refusal.is(WechatReplies.ORDER_NOT_EXIST) ? CloseResult.CLOSED : null);
    }

    /** What WeChat's close did. */
    enum CloseResult {
        CLOSED,
        /** The buyer paid: WeChat keeps the trade open (a query tells what it knows). */
        PAID
    }

    /**
     * Refunds {@code refundFen} of the trade (paid {@code totalFen}) as the refund {@code refundNo}: made, refused for
     * good, or stuck (ABNORMAL). Fails while WeChat has not decided (PROCESSING) and when the outcome is unknown: the
     * refund notify or the refund query tells later. Sent again with the same number it refunds nothing twice.
     */
    public Uni<RefundAnswer> refund(String outTradeNo, long totalFen, long refundFen, String refundNo) {
        return call("refund", "refund.create", outTradeNo, sdk -> {
            CreateRequest request = new CreateRequest();
            request.setOutTradeNo(outTradeNo);
            request.setOutRefundNo(refundNo);
            request.setReason("Refund of order " + WechatTradeNo.orderNoOf(outTradeNo));
            request.setNotifyUrl(sdk.refundNotifyUrl);
            AmountReq amount = new AmountReq();
            amount.setRefund(refundFen);
            amount.setTotal(totalFen);
            amount.setCurrency(CNY);
            request.setAmount(amount);
            return sdk.refunds.create(request);
        }, WechatReplies::refundAnswer, WechatReplies::refusedRefund);
    }

    /**
     * What WeChat says of the refund {@code refundNo}: made, closed, abnormal, or not taken (no such refund); fails
     * while it is processing and when the query's outcome is unknown.
     */
    public Uni<RefundFinding> findRefund(String outTradeNo, String refundNo) {
        QueryByOutRefundNoRequest request = new QueryByOutRefundNoRequest();
        request.setOutRefundNo(refundNo);
        return call("refund_query", "refund.queryByOutRefundNo", outTradeNo,
                sdk -> sdk.refunds.queryByOutRefundNo(request),
                answer -> WechatReplies.refundFinding(answer.getStatus()),
                refusal -> refusal.is(WechatReplies.RESOURCE_NOT_EXISTS) ? RefundFinding.NOT_TAKEN : null);
    }

    /**
     * The day's trade bill (bill_type ALL, gzipped), as downloaded: empty while WeChat has not made it. The SDK asks
     * where it is (a signed answer: a download_url and the SHA-1 of the unzipped file), downloads it through the same
     * client, unzips it and computes the digest as it is read; reading it stops past {@code maxBytes} unzipped. What
     * could not be read whole, or does not match its digest, comes back with the reason ({@link BillFile#damage}).
     * The download runs on the bulkhead like every call, each read bounded by the client's read timeout.
     */
    public Uni<Optional<BillFile>> tradeBill(LocalDate date, long maxBytes) {
        GetTradeBillRequest request = new GetTradeBillRequest();
        request.setBillDate(date.toString());
        request.setBillType(BillType.ALL);
        request.setTarType(TarType.GZIP);
        return call("bill", "billdownload.getTradeBill", null, sdk -> read(sdk.bills.getTradeBill(request), maxBytes),
                Optional::of, refusal -> WechatReplies.BILL_NOT_MADE.contains(refusal.code()) ? Optional.empty() : null);
    }

    /** The bill's bytes, unzipped, or the reason they cannot be trusted (then no bytes). */
    public record BillFile(byte[] content, String damage) {
    }

    private static BillFile read(DigestBillEntity bill, long maxBytes) {
        byte[] content;
        try (InputStream in = bill.getInputStream()) {
            content = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        } catch (IOException e) {
            // A gzip stream cut short (EOFException) or corrupt: the download was not the whole bill.
            return new BillFile(null, "the bill's download could not be read whole: " + e);
        }
        if (content.length > maxBytes) {
            return new BillFile(null, "the bill is larger than " + maxBytes + " bytes unzipped");
        }
        if (!bill.verifyHash()) {
            return new BillFile(null, "the bill does not match the SHA-1 WeChat Pay gave for it (truncated or "
                    + "tampered with)");
        }
        return new BillFile(content, null);
    }

    /** The notify parser (verifies, decrypts); blocks the first time (the SDK is made). Never on an event loop. */
    NotificationParser notificationParser() {
        return sdk().notifies;
    }

    private synchronized WechatSdk sdk() {
        if (sdk == null) {
            sdk = WechatSdk.build(config, keys);
        }
        return sdk;
    }

    /** The SDK's call. */
    @FunctionalInterface
    private interface Send<R> {
        R to(WechatSdk sdk);
    }

    /** What one call came to: an answer, or the failure to throw; its outcome and WeChat's code for span and metrics. */
    private record Attempt<T>(T answer, String outcome, String code, RuntimeException failure) {

        static <T> Attempt<T> failed(String outcome, String code, RuntimeException failure) {
            return new Attempt<>(null, outcome, code, failure);
        }
    }

    /**
     * Runs the call on the bulkhead: {@code send} with the SDK and {@code read} of its answer (null when WeChat answered
     * without a decision), or, when WeChat answers with an error, {@code refused} to read that as an answer (null when
     * it is none). Each call is a client span (method, outcome and WeChat's code only: never keys, signatures, codes
     * to pay with or the buyer's data) and an entry of its order's timeline.
     */
    private <R, T> Uni<T> call(String method, String rpcMethod, String outTradeNo, Send<R> send, Function<R, T> read,
            Function<Refusal, T> refused) {
        // A call about no trade (the bill) is in no order's timeline.
        String orderNo = WechatTradeNo.orderNoOf(outTradeNo);
        return bulkhead.call(() -> Spans.run(spans.start("wechatpay " + method, SpanKind.CLIENT), span -> {
            long start = System.nanoTime();
            span.setAttribute(RPC_SYSTEM, "wechatpay");
            span.setAttribute(RPC_METHOD, rpcMethod);
            if (orderNo != null) {
                span.setAttribute(Spans.ORDER_NO, orderNo);
            }
            Attempt<T> attempt = attempt(method, send, read, refused);
            if (attempt.code() != null) {
                span.setAttribute(WECHATPAY_CODE, attempt.code());
            }
            span.setAttribute(WECHATPAY_OUTCOME, attempt.outcome());
            if (orderNo != null) {
                events.note(orderNo, OrderEvents.Kind.WECHAT_CALL, attempt.outcome(), rpcMethod);
            }
            callTimer(method, attempt.outcome()).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            if (attempt.failure() != null) {
                throw attempt.failure();
            }
            return attempt.answer();
        })).onFailure(Bulkhead.BulkheadFullException.class).transform(full -> {
            // Refused before it reached WeChat: counted too, so that a starved bulkhead shows in the error rate.
            callTimer(method, "bulkhead_full").record(0, TimeUnit.NANOSECONDS);
            if (orderNo != null) {
                events.note(orderNo, OrderEvents.Kind.WECHAT_CALL, "bulkhead_full", rpcMethod);
            }
            return PaymentGatewayException.unavailable(WALLET, method, full);
        });
    }

    private <R, T> Attempt<T> attempt(String method, Send<R> send, Function<R, T> read, Function<Refusal, T> refused) {
        WechatSdk wechat;
        try {
            wechat = sdk();
        } catch (RuntimeException e) {
            // Keys that do not load, platform certificates that cannot be downloaded: the next call tries again.
            LOG.errorf("WeChat Pay cannot be set up for %s: %s", method, WechatReplies.describe(e));
            return Attempt.failed("setup_failed", null, PaymentGatewayException.unavailable(WALLET, method, e));
        }
        try {
            T answer = read.apply(send.to(wechat));
            return answer != null ? new Attempt<>(answer, "success", null, null)
                    : Attempt.failed("undecided", null, PaymentGatewayException.tryAgain(WALLET, method,
                            " (answered without a decision yet)", Map.of()));
        } catch (ServiceException e) {
            Refusal refusal = Refusal.of(e);
            T answer = refusal.isTryAgain() ? null : refused.apply(refusal);
            if (answer != null) {
                return new Attempt<>(answer, refusal.outcome(), refusal.outcome(), null);
            }
            LOG.warnf("WeChat Pay answered %s with %d %s: %s", method, refusal.status(), refusal.code(),
                    refusal.message());
            return Attempt.failed(refusal.outcome(), refusal.outcome(), refusal.failure(method));
        } catch (ValidationException e) {
            LOG.warnf("WeChat Pay's answer to %s is not trusted: its signature does not verify under the serial it "
                    + "names (verification %s)", method, config.verification());
            return Attempt.failed("untrusted", null, PaymentGatewayException.untrusted(WALLET, method, e));
        } catch (WechatPayException | IllegalArgumentException | JsonParseException e) {
            // Not reached, timed out, or an answer the SDK cannot take (signed out of its five minutes, no JSON: an
            // error page): whether WeChat did what was asked is unknown.
            LOG.warnf("WeChat Pay call %s failed: %s", method, Causes.of(e));
            return Attempt.failed("error", null, PaymentGatewayException.unavailable(WALLET, method, e));
        }
    }

    private Timer callTimer(String method, String outcome) {
        return Timer.builder("wechat.calls").description("WeChat Pay API calls by method and outcome")
                .tags("method", method, "outcome", outcome)
                .serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
                        Duration.ofSeconds(3), Duration.ofSeconds(5))
                .register(registry);
    }
}
