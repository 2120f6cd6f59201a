package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import com.alipay.api.AlipayApiException;
import com.alipay.api.AlipayClient;
import com.alipay.api.AlipayConfig;
import com.alipay.api.internal.util.AlipayLogger;
import com.alipay.api.AlipayRequest;
import com.alipay.api.AlipayResponse;
import com.alipay.api.DefaultAlipayClient;
import com.alipay.api.domain.AlipayTradeCloseModel;
import com.alipay.api.domain.AlipayTradePrecreateModel;
import com.alipay.api.domain.AlipayTradeQueryModel;
import com.alipay.api.domain.AlipayTradeRefundModel;
import com.alipay.api.request.AlipayTradeCloseRequest;
import com.alipay.api.request.AlipayTradePrecreateRequest;
import com.alipay.api.request.AlipayTradeQueryRequest;
import com.alipay.api.request.AlipayTradeRefundRequest;
import com.alipay.api.response.AlipayTradeQueryResponse;

import com.shop.orders.common.MutinyBridge;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;

/**
 * Alipay's trade API through the official SDK. The SDK blocks on HTTP, so every call runs on a
 * worker thread and comes back as a {@link Uni}. Success is {@code code == 10000}: the SDK's
 * {@code isSuccess()} only means that no sub_code was sent.
 */
@ApplicationScoped
public class AlipayGateway {

    static final String SUCCESS = "10000";
    static final String TRADE_NOT_EXIST = "ACQ.TRADE_NOT_EXIST";
    static final String TRADE_STATUS_ERROR = "ACQ.TRADE_STATUS_ERROR";
    /** Alipay's time_expire is Beijing time. */
    private static final DateTimeFormatter ALIPAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.of("Asia/Shanghai"));

    private final AlipayClient client;
    private final AlipayGatewayConfig config;
    private final MeterRegistry registry;

    public AlipayGateway(AlipayGatewayConfig config, AlipayKeys keys, MeterRegistry registry) throws AlipayApiException {
        this.config = config;
        this.registry = registry;
        AlipayLogger.setNeedEnableLogger(false);
        AlipayConfig sdk = new AlipayConfig();
        sdk.setServerUrl(config.gatewayUrl());
        sdk.setAppId(config.appId());
        sdk.setPrivateKey(keys.merchantPrivateKey());
        sdk.setAlipayPublicKey(keys.alipayPublicKey());
        sdk.setFormat("json");
        sdk.setCharset("UTF-8");
        sdk.setSignType("RSA2");
        sdk.setConnectTimeout((int) config.connectTimeout().toMillis());
        sdk.setReadTimeout((int) config.readTimeout().toMillis());
        this.client = new DefaultAlipayClient(sdk);
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
        return call("precreate", request, response -> {
            if (!SUCCESS.equals(response.getCode())) {
                throw refused("precreate", response);
            }
            return response.getQrCode();
        });
    }

    public Uni<Trade> query(String orderNo) {
        AlipayTradeQueryModel model = new AlipayTradeQueryModel();
        model.setOutTradeNo(orderNo);
        AlipayTradeQueryRequest request = new AlipayTradeQueryRequest();
        request.setBizModel(model);
        return call("query", request, response -> {
            if (TRADE_NOT_EXIST.equals(response.getSubCode())) {
                return Trade.notExist(orderNo);
            }
            if (!SUCCESS.equals(response.getCode())) {
                throw refused("query", response);
            }
            return toTrade(orderNo, response);
        });
    }

    /** Closes the trade so that it can no longer be paid. */
    public Uni<CloseResult> close(String orderNo) {
        AlipayTradeCloseModel model = new AlipayTradeCloseModel();
        model.setOutTradeNo(orderNo);
        AlipayTradeCloseRequest request = new AlipayTradeCloseRequest();
        request.setBizModel(model);
        return call("close", request, response -> {
            if (SUCCESS.equals(response.getCode())) {
                return CloseResult.CLOSED;
            }
            if (TRADE_NOT_EXIST.equals(response.getSubCode())) {
                return CloseResult.NOT_EXIST;
            }
            if (TRADE_STATUS_ERROR.equals(response.getSubCode())) {
                return CloseResult.NOT_CLOSABLE;
            }
            throw refused("close", response);
        });
    }

    /** Refunds; {@code requestNo} makes a repeated refund of the same money a no-op at Alipay. */
    public Uni<Void> refund(String orderNo, BigDecimal amount, String requestNo) {
        AlipayTradeRefundModel model = new AlipayTradeRefundModel();
        model.setOutTradeNo(orderNo);
        model.setRefundAmount(amount.toPlainString());
        model.setOutRequestNo(requestNo);
        AlipayTradeRefundRequest request = new AlipayTradeRefundRequest();
        request.setBizModel(model);
        return call("refund", request, response -> {
            if (!SUCCESS.equals(response.getCode())) {
                throw refused("refund", response);
            }
            return null;
        }).replaceWithVoid();
    }

    public enum CloseResult {
        CLOSED,
        /** Never scanned: there is no trade to close. */
        NOT_EXIST,
        /** Paid (or finished) already; query to find out. */
        NOT_CLOSABLE
    }

    private <R extends AlipayResponse, T> Uni<T> call(String method, AlipayRequest<R> request, Function<R, T> handle) {
        return MutinyBridge.blocking(() -> {
            long start = System.nanoTime();
            String outcome = "error";
            try {
                R response = client.execute(request);
                outcome = SUCCESS.equals(response.getCode()) ? "success"
                        : response.getSubCode() == null ? response.getCode() : response.getSubCode();
                return handle.apply(response);
            } catch (AlipayApiException e) {
                throw PaymentGatewayException.unavailable(method, e);
            } finally {
                Timer.builder("alipay.calls").description("Alipay API calls by method and outcome")
                        .tags("method", method, "outcome", outcome)
                        .register(registry).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        });
    }

    private static PaymentGatewayException refused(String method, AlipayResponse response) {
        return PaymentGatewayException.refused(method, response.getCode(), response.getSubCode(), response.getSubMsg());
    }

    private static Trade toTrade(String orderNo, AlipayTradeQueryResponse response) {
        return new Trade(orderNo, TradeStatus.parse(response.getTradeStatus()), response.getTradeNo(),
                response.getTotalAmount() == null ? null : new BigDecimal(response.getTotalAmount()),
                response.getSendPayDate() == null ? null : response.getSendPayDate().toInstant());
    }
}
