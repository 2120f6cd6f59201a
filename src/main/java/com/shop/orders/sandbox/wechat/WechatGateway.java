package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * WeChat Pay's Native APIs as the sandbox answers them: prepay, query by out_trade_no and close, each through
 * {@link WechatCalls} (the merchant's signature, the fault knobs), with WeChat's error codes. What it answers is
 * signed by {@link WechatResponses}; errors go unsigned, as WeChat's do.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatGateway {

    static final String PREPAY = "prepay";
    static final String QUERY = "query";
    static final String CLOSE = "close";
    /** Where the sandbox serves WeChat's paths; the merchant signed them without it. */
    static final String PATH_PREFIX = "/sandbox/wechat";

    private static final Pattern OUT_TRADE_NO = Pattern.compile("[0-9A-Za-z_\\-|*]{6,32}");
    private static final String MCHID_MISMATCH = "mchid与请求的商户号不匹配";
    /** WeChat moves a time_expire earlier than this after the order's creation up to it. */
    private static final Duration MIN_EXPIRY = Duration.ofMinutes(1);

    private final WechatTrades trades;
    private final WechatCalls calls;
    private final WechatSandboxConfig config;
    private final WechatNotifier notifier;

    public WechatGateway(WechatTrades trades, WechatCalls calls, WechatSandboxConfig config, WechatNotifier notifier) {
        this.trades = trades;
        this.calls = calls;
        this.config = config;
        this.notifier = notifier;
    }

    WechatAnswer prepay(String rawUri, String authorization, String body) {
        return calls.posted(PREPAY, rawUri, authorization, body, this::invalidPrepay, "out_trade_no",
                this::prepared);
    }

    WechatAnswer query(String rawUri, String authorization, String outTradeNo, String mchid) {
        return calls.authenticated("GET", rawUri, authorization, "", () -> {
            if (!config.mchid().equals(mchid)) {
                return WechatAnswer.error(400, "PARAM_ERROR", MCHID_MISMATCH);
            }
            return calls.faulted(QUERY, outTradeNo, () -> trades.find(outTradeNo)
                    .map(trade -> WechatAnswer.ok(transaction(trade.view())))
                    .orElseGet(() -> WechatAnswer.error(404, "ORDER_NOT_EXIST", "订单不存在")));
        });
    }

    WechatAnswer close(String rawUri, String authorization, String outTradeNo, String body) {
        return calls.authenticated("POST", rawUri, authorization, body, () -> calls.withJson(body, request -> {
            if (!config.mchid().equals(request.path("mchid").asText(null))) {
                return WechatAnswer.error(400, "PARAM_ERROR", MCHID_MISMATCH);
            }
            // An unknown number, or one closed before, is closed as far as WeChat is concerned: 204.
            return calls.faulted(CLOSE, outTradeNo, () -> trades.find(outTradeNo).map(WechatTrade::close).orElse(true)
                    ? WechatAnswer.noContent()
                    : WechatAnswer.error(400, "ORDERPAID", "该订单已支付"));
        }));
    }

    private WechatAnswer prepared(JsonNode request, String outTradeNo) {
        Instant now = Instant.now();
        Instant expiresAt = now.plus(config.codeUrlValidity());
        if (request.hasNonNull("time_expire")) {
            Instant asked = OffsetDateTime.parse(request.get("time_expire").asText()).toInstant();
            expiresAt = asked.isBefore(now.plus(MIN_EXPIRY)) ? now.plus(MIN_EXPIRY) : asked;
        }
        WechatTrade trade = trades.prepare(outTradeNo, request.path("description").asText(),
                request.path("amount").path("total").asInt(), request.path("notify_url").asText(), now, expiresAt);
        if (trade == null) {
            return WechatAnswer.error(400, "INVALID_REQUEST", "商户订单号重复");
        }
        return switch (trade.state()) {
            case SUCCESS, REFUND -> WechatAnswer.error(400, "ORDERPAID", "该订单已支付");
            case CLOSED -> WechatAnswer.error(400, "ORDER_CLOSED", "订单已关闭");
            case NOTPAY -> WechatAnswer.ok(Map.of("code_url", trade.codeUrl));
        };
    }

    private String invalidPrepay(JsonNode request) {
        if (!config.appid().equals(request.path("appid").asText(null))) {
            return "appid与商户号不匹配";
        }
        if (!config.mchid().equals(request.path("mchid").asText(null))) {
            return MCHID_MISMATCH;
        }
        String description = request.path("description").asText("");
        if (description.isEmpty() || description.length() > 127) {
            return "description长度应为1-127";
        }
        if (!OUT_TRADE_NO.matcher(request.path("out_trade_no").asText("")).matches()) {
            return "out_trade_no应为6-32位数字、大小写字母或_-|*";
        }
        JsonNode amount = request.path("amount");
        if (!amount.path("total").isInt() || amount.path("total").asInt() <= 0) {
            return "amount.total应为正整数(分)";
        }
        if (amount.hasNonNull("currency") && !"CNY".equals(amount.get("currency").asText())) {
            return "currency仅支持CNY";
        }
        String notifyUrl = request.path("notify_url").asText("");
        if (!notifyUrl.matches("https?://[^?#\\s]+") || notifyUrl.length() > 255) {
            return "notify_url格式不正确(不能携带参数)";
        }
        if (request.hasNonNull("time_expire")) {
            try {
                OffsetDateTime.parse(request.get("time_expire").asText());
            } catch (DateTimeParseException e) {
                return "time_expire应为rfc3339格式";
            }
        }
        return null;
    }

    /** The buyer paid: the notify starts on its schedule. */
    void paid(WechatTrade trade) {
        notifier.paymentMade(trade, WechatAnswer.write(transaction(trade.view())));
    }

    /** A trade as WeChat's query and notify describe it (model Transaction). */
    Map<String, Object> transaction(WechatTradeView trade) {
        Map<String, Object> transaction = new LinkedHashMap<>();
        transaction.put("appid", config.appid());
        transaction.put("mchid", config.mchid());
        transaction.put("out_trade_no", trade.outTradeNo());
        boolean paid = trade.transactionId() != null;
        if (paid) {
            transaction.put("transaction_id", trade.transactionId());
        }
        transaction.put("trade_type", "NATIVE");
        transaction.put("trade_state", trade.tradeState());
        transaction.put("trade_state_desc", switch (trade.tradeState()) {
            case "SUCCESS" -> "支付成功";
            case "REFUND" -> "转入退款";
            case "CLOSED" -> "订单已关闭";
            default -> "订单未支付";
        });
        Map<String, Object> amount = new LinkedHashMap<>();
        amount.put("total", trade.total());
        amount.put("currency", "CNY");
        if (paid) {
            transaction.put("bank_type", "OTHERS");
            transaction.put("attach", "");
            transaction.put("success_time", WechatTime.format(trade.successTime()));
            transaction.put("payer", Map.of("openid", WechatTrade.OPENID));
            amount.put("payer_total", trade.total());
            amount.put("payer_currency", "CNY");
        }
        transaction.put("amount", amount);
        return transaction;
    }
}
