package com.shop.orders.sandbox.wechat;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.arc.profile.IfBuildProfile;

/**
 * WeChat Pay's domestic refunds as the sandbox answers them: create (by out_trade_no or transaction_id, idempotent
 * per out_refund_no, at most 50 per trade, never more than was paid, and a refund interval apart on one trade) and
 * query by out_refund_no, each through {@link WechatCalls}. An accepted refund is PROCESSING, SUCCESS after the
 * refund delay (ABNORMAL instead when the fault knob abnormalRefunds says so, until the merchant console resolves it
 * to SUCCESS or CLOSED), and each of these is notified (REFUND.SUCCESS, REFUND.ABNORMAL, REFUND.CLOSED) when the
 * request named a notify_url.
 */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class WechatRefunds {

    static final String REFUND = "refund";
    static final String REFUND_QUERY = "refundQuery";

    static final Pattern OUT_REFUND_NO = Pattern.compile("[0-9A-Za-z_\\-|*@]{1,64}");
    /** WeChat pays refunds of balance payments back to the buyer's balance, which it names so. */
    private static final String RECEIVED_ACCOUNT = "支付用户零钱";

    private final WechatTrades trades;
    private final WechatCalls calls;
    private final WechatNotifier notifier;
    private final WechatSandboxConfig config;
    private final WechatFaults faults;
    private final ScheduledExecutorService settling =
            Executors.newSingleThreadScheduledExecutor(WechatNotifier.daemon("wechat-sandbox-refunds"));

    public WechatRefunds(WechatTrades trades, WechatCalls calls, WechatNotifier notifier, WechatSandboxConfig config,
            WechatFaults faults) {
        this.trades = trades;
        this.calls = calls;
        this.notifier = notifier;
        this.config = config;
        this.faults = faults;
    }

    WechatAnswer create(String rawUri, String authorization, String body) {
        return calls.posted(REFUND, rawUri, authorization, body, WechatRefunds::invalidRefund, "out_refund_no",
                this::refunded);
    }

    WechatAnswer query(String rawUri, String authorization, String outRefundNo) {
        return calls.authenticated("GET", rawUri, authorization, "", () -> calls.faulted(REFUND_QUERY, outRefundNo,
                () -> trades.findRefund(outRefundNo).map(refund -> WechatAnswer.ok(refund(refund.view())))
                        .orElseGet(() -> WechatAnswer.error(404, "RESOURCE_NOT_EXISTS", "退款单不存在"))));
    }

    @PreDestroy
    void stop() {
        settling.shutdownNow();
    }

    private WechatAnswer refunded(JsonNode request, String outRefundNo) {
        Optional<WechatTrade> trade = trade(request);
        if (trade.isEmpty()) {
            return WechatAnswer.error(404, "RESOURCE_NOT_EXISTS", "订单不存在");
        }
        JsonNode amount = request.path("amount");
        if (amount.path("total").asInt() != trade.get().total) {
            return WechatAnswer.error(400, "PARAM_ERROR", "amount.total与原订单金额不一致");
        }
        try {
            return WechatAnswer.ok(refund(refund(trade.get(), outRefundNo, amount.path("refund").asInt(),
                    request.path("reason").asText(null), request.path("notify_url").asText(null),
                    faults.refundInterval().orElse(config.refundInterval())).view()));
        } catch (WechatRejected rejected) {
            return rejected.answer();
        }
    }

    /**
     * A refund made at WeChat's merchant console, by the same rules as the API's; the order service never asked for
     * it and hears of it only by querying. Empty for an unknown trade; throws {@link WechatRejected} with WeChat's
     * reason.
     */
    Optional<WechatTradeView> byMerchant(String outTradeNo, int amount, String outRefundNo) {
        return trades.find(outTradeNo).map(trade -> {
            // The console is not the API: its refunds are not held to the API's interval.
            refund(trade, outRefundNo, amount, "商户平台退款", null, Duration.ZERO);
            return trade.view();
        });
    }

    /**
     * A person in the merchant console ends an ABNORMAL refund: paid back some other way (SUCCESS) or closed (nothing
     * moved, the amount is refundable again); notified when the refund named a notify_url. Empty for an unknown
     * refund; throws {@link WechatRejected} when it is not ABNORMAL.
     */
    Optional<WechatRefundView> resolve(String outRefundNo, boolean success) {
        return trades.findRefund(outRefundNo).map(refund -> {
            if (!refund.resolve(success, Instant.now())) {
                throw WechatRejected.invalidRequest("退款单状态不是ABNORMAL: " + refund.status());
            }
            notifyOf(refund);
            return refund.view();
        });
    }

    /** The refund under the number, made now (and settled after the delay) or before. */
    private WechatRefund refund(WechatTrade trade, String outRefundNo, int amount, String reason, String notifyUrl,
            Duration interval) {
        WechatTrades.Refunding refunding = trades.refund(trade, outRefundNo, amount, reason, notifyUrl, Instant.now(),
                interval);
        if (refunding.made()) {
            settle(refunding.refund(), config.refundDelay(), faults.takeAbnormalRefund());
        }
        return refunding.refund();
    }

    /** The trade a refund names; transaction_id wins, and both given must agree. */
    private Optional<WechatTrade> trade(JsonNode request) {
        String outTradeNo = request.path("out_trade_no").asText(null);
        String transactionId = request.path("transaction_id").asText(null);
        if (transactionId == null) {
            return trades.find(outTradeNo);
        }
        return trades.byTransactionId(transactionId)
                .filter(trade -> outTradeNo == null || outTradeNo.equals(trade.outTradeNo));
    }

    /**
     * After the delay the refund succeeds (or turns ABNORMAL: {@code abnormal}, decided when it was made), and is
     * notified when the merchant asked for it.
     */
    private void settle(WechatRefund refund, Duration delay, boolean abnormal) {
        try {
            settling.schedule(() -> {
                if (refund.settle(Instant.now(), abnormal)) {
                    notifyOf(refund);
                }
            }, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // the application is stopping: the refund stays PROCESSING with it
        }
    }

    /** Its notify as it stands now, when the merchant asked for notifies. */
    private void notifyOf(WechatRefund refund) {
        if (refund.notifyUrl != null) {
            WechatRefundView view = refund.view();
            notifier.refundNotify(refund, WechatRefund.Status.valueOf(view.status()),
                    WechatAnswer.write(notification(view)));
        }
    }

    private static String invalidRefund(JsonNode request) {
        if (!request.hasNonNull("out_trade_no") && !request.hasNonNull("transaction_id")) {
            return "transaction_id和out_trade_no必须二选一";
        }
        if (!OUT_REFUND_NO.matcher(request.path("out_refund_no").asText("")).matches()) {
            return "out_refund_no应为1-64位数字、大小写字母或_-|*@";
        }
        if (request.path("reason").asText("").length() > 80) {
            return "reason长度不能超过80";
        }
        if (request.hasNonNull("notify_url") && !request.get("notify_url").asText().matches("https?://[^?#\\s]{1,247}")) {
            return "notify_url格式不正确(不能携带参数)";
        }
        JsonNode amount = request.path("amount");
        if (!amount.path("refund").isInt() || amount.path("refund").asInt() <= 0) {
            return "amount.refund应为正整数(分)";
        }
        if (!amount.path("total").isInt() || amount.path("total").asInt() <= 0) {
            return "amount.total应为正整数(分)";
        }
        if (!"CNY".equals(amount.path("currency").asText(null))) {
            return "amount.currency仅支持CNY";
        }
        return null;
    }

    /** A refund as WeChat's create and query answer it (model Refund). */
    private static Map<String, Object> refund(WechatRefundView refund) {
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("refund_id", refund.refundId());
        answer.put("out_refund_no", refund.outRefundNo());
        answer.put("transaction_id", refund.transactionId());
        answer.put("out_trade_no", refund.outTradeNo());
        answer.put("channel", "ORIGINAL");
        answer.put("user_received_account", RECEIVED_ACCOUNT);
        if (refund.successTime() != null) {
            answer.put("success_time", WechatTime.format(refund.successTime()));
        }
        answer.put("create_time", WechatTime.format(refund.createdAt()));
        answer.put("status", refund.status());
        answer.put("funds_account", "AVAILABLE");
        Map<String, Object> amount = new LinkedHashMap<>(amounts(refund));
        amount.put("from", List.of());
        amount.put("settlement_refund", refund.amount());
        amount.put("settlement_total", refund.total());
        amount.put("discount_refund", 0);
        amount.put("currency", "CNY");
        amount.put("refund_fee", 0);
        answer.put("amount", amount);
        answer.put("promotion_detail", List.of());
        return answer;
    }

    /** A refund as WeChat's refund notify carries it (model RefundNotification: refund_status, not status). */
    private Map<String, Object> notification(WechatRefundView refund) {
        Map<String, Object> notification = new LinkedHashMap<>();
        notification.put("mchid", config.mchid());
        notification.put("out_trade_no", refund.outTradeNo());
        notification.put("transaction_id", refund.transactionId());
        notification.put("out_refund_no", refund.outRefundNo());
        notification.put("refund_id", refund.refundId());
        notification.put("refund_status", refund.status());
        if (refund.successTime() != null) {
            notification.put("success_time", WechatTime.format(refund.successTime()));
        }
        notification.put("user_received_account", RECEIVED_ACCOUNT);
        notification.put("amount", amounts(refund));
        return notification;
    }

    private static Map<String, Object> amounts(WechatRefundView refund) {
        Map<String, Object> amount = new LinkedHashMap<>();
        amount.put("total", refund.total());
        amount.put("refund", refund.amount());
        amount.put("payer_total", refund.total());
        amount.put("payer_refund", refund.amount());
        return amount;
    }
}
