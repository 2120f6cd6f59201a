package com.shop.orders.sandbox.alipay;

import io.quarkus.arc.profile.IfBuildProfile;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The alipay.trade.* methods the sandbox serves, each turning a verified call into an answer node. */
@ApplicationScoped
@IfBuildProfile(anyOf = {"dev", "test"})
public class TradeMethods {

    static final Set<String> METHODS = Set.of("alipay.trade.precreate", "alipay.trade.query",
            "alipay.trade.close", "alipay.trade.cancel", "alipay.trade.refund", "alipay.trade.fastpay.refund.query");

    private static final Pattern TIMEOUT_EXPRESS = Pattern.compile("(\\d{1,5})([mhd])");
    private static final Duration MAX_TIMEOUT = Duration.ofDays(15);

    private final SandboxTrades trades;
    private final SandboxConfig config;

    public TradeMethods(SandboxTrades trades, SandboxConfig config) {
        this.trades = trades;
        this.config = config;
    }

    /** The answer node; business refusals are thrown as {@link TradeRejected}. */
    Map<String, Object> answer(GatewayCall call) {
        return switch (call.method()) {
            case "alipay.trade.precreate" -> precreate(call);
            case "alipay.trade.query" -> query(call);
            case "alipay.trade.close" -> close(call);
            case "alipay.trade.cancel" -> cancel(call);
            case "alipay.trade.refund" -> refund(call);
            case "alipay.trade.fastpay.refund.query" -> refundQuery(call);
            default -> throw new IllegalArgumentException("not a sandbox method: " + call.method());
        };
    }

    /** The out_trade_no a call is about, also when it names the trade by trade_no only. */
    Optional<String> outTradeNoOf(GatewayCall call) {
        String outTradeNo = call.biz("out_trade_no");
        if (outTradeNo != null) {
            return Optional.of(outTradeNo);
        }
        String tradeNo = call.biz("trade_no");
        return tradeNo == null ? Optional.empty() : trades.byTradeNo(tradeNo).map(t -> t.outTradeNo);
    }

    private Map<String, Object> precreate(GatewayCall call) {
        String outTradeNo = call.required("out_trade_no", 64);
        BigDecimal amount = Money.parse(call.biz("total_amount"))
                .orElseThrow(() -> TradeRejected.invalidParameter("total_amount must be 0.01 to 100000000, two decimals at most"));
        String subject = call.required("subject", 256);
        Instant expiresAt = expiry(call);
        SandboxTrade trade = trades.precreate(outTradeNo, amount, subject, expiresAt, call.notifyUrl(), call.now());
        return AlipayAnswers.success("out_trade_no", outTradeNo, "qr_code", trade.qrCode);
    }

    private Map<String, Object> query(GatewayCall call) {
        SandboxTrade trade = existingTrade(call);
        TradeSnapshot t = trade.snapshot(call.now());
        boolean paid = t.paidAt() != null;
        String paidAmount = paid ? Money.format(t.totalAmount()) : "0.00";
        return AlipayAnswers.success(
                "trade_no", t.tradeNo(),
                "out_trade_no", t.outTradeNo(),
                "buyer_logon_id", SandboxTrade.BUYER_LOGON_ID,
                "trade_status", t.status().name(),
                "total_amount", Money.format(t.totalAmount()),
                "buyer_pay_amount", paidAmount,
                "point_amount", "0.00",
                "invoice_amount", paidAmount,
                "receipt_amount", paidAmount,
                "send_pay_date", paid ? AlipayTime.format(t.paidAt()) : null,
                "buyer_user_id", SandboxTrade.BUYER_ID);
    }

    private Map<String, Object> close(GatewayCall call) {
        SandboxTrade trade = existingTrade(call);
        trade.close(call.now());
        return AlipayAnswers.success("trade_no", trade.tradeNo(), "out_trade_no", trade.outTradeNo);
    }

    private Map<String, Object> cancel(GatewayCall call) {
        // cancel also reaches a precreated QR code nobody scanned yet, so that it can never be paid
        SandboxTrade trade = anyTrade(call).orElseThrow(TradeRejected::notExist);
        String action = trade.cancel(call.now());
        return AlipayAnswers.success("trade_no", trade.tradeNo(), "out_trade_no", trade.outTradeNo,
                "retry_flag", "N", "action", action);
    }

    private Map<String, Object> refund(GatewayCall call) {
        SandboxTrade trade = existingTrade(call);
        BigDecimal amount = Money.parse(call.biz("refund_amount"))
                .orElseThrow(() -> TradeRejected.invalidParameter("refund_amount must be 0.01 or more, two decimals at most"));
        String requestNo = requestNoOf(call, trade);
        SandboxTrade.RefundOutcome outcome = trade.refund(requestNo, amount, call.now());
        return AlipayAnswers.success(
                "trade_no", trade.tradeNo(),
                "out_trade_no", trade.outTradeNo,
                "buyer_logon_id", SandboxTrade.BUYER_LOGON_ID,
                "fund_change", outcome.fundChanged() ? "Y" : "N",
                "refund_fee", Money.format(outcome.refundedTotal()),
                "gmt_refund_pay", AlipayTime.format(outcome.refundedAt()),
                "send_back_fee", Money.format(amount),
                "buyer_user_id", SandboxTrade.BUYER_ID);
    }

    /**
     * Alipay's refund query: success without the refund fields when no refund was made under the request
     * number, which is how Alipay says "not refunded" (its refund is synchronous: made, or not at all).
     */
    private Map<String, Object> refundQuery(GatewayCall call) {
        SandboxTrade trade = existingTrade(call);
        String requestNo = requestNoOf(call, trade);
        TradeSnapshot t = trade.snapshot(call.now());
        Optional<RefundSnapshot> refund = t.refund(requestNo);
        return AlipayAnswers.success(
                "trade_no", t.tradeNo(),
                "out_trade_no", t.outTradeNo(),
                "out_request_no", requestNo,
                "total_amount", refund.map(r -> Money.format(t.totalAmount())).orElse(null),
                "refund_amount", refund.map(r -> Money.format(r.amount())).orElse(null),
                "refund_status", refund.map(r -> "REFUND_SUCCESS").orElse(null),
                "gmt_refund_pay", refund.map(r -> AlipayTime.format(r.at())).orElse(null));
    }

    /** Alipay takes the out_trade_no for a missing out_request_no, in a refund and in its query alike. */
    private static String requestNoOf(GatewayCall call, SandboxTrade trade) {
        return Optional.ofNullable(call.biz("out_request_no")).orElse(trade.outTradeNo);
    }

    /** A trade Alipay knows: one the buyer scanned (or a cancel closed); an unscanned QR code is no trade. */
    private SandboxTrade existingTrade(GatewayCall call) {
        return anyTrade(call).filter(SandboxTrade::existsAtAlipay).orElseThrow(TradeRejected::notExist);
    }

    /** trade_no wins over out_trade_no, as at Alipay; both given must agree. */
    private Optional<SandboxTrade> anyTrade(GatewayCall call) {
        String tradeNo = call.biz("trade_no");
        String outTradeNo = call.biz("out_trade_no");
        if (tradeNo == null && outTradeNo == null) {
            throw TradeRejected.invalidParameter("out_trade_no or trade_no is required");
        }
        if (tradeNo != null) {
            return trades.byTradeNo(tradeNo).filter(t -> outTradeNo == null || outTradeNo.equals(t.outTradeNo));
        }
        return trades.byOutTradeNo(outTradeNo);
    }

    /** time_expire wins over timeout_express; with neither the QR code lives for the configured default. */
    private Instant expiry(GatewayCall call) {
        String timeExpire = call.biz("time_expire");
        if (timeExpire != null) {
            Instant at = AlipayTime.parse(timeExpire)
                    .orElseThrow(() -> TradeRejected.invalidParameter("time_expire must be yyyy-MM-dd HH:mm:ss"));
            if (!at.isAfter(call.now())) {
                throw TradeRejected.invalidParameter("time_expire is not in the future");
            }
            return at;
        }
        String timeoutExpress = call.biz("timeout_express");
        if (timeoutExpress == null) {
            return call.now().plus(config.defaultQrValidity());
        }
        if (timeoutExpress.equals("1c")) {
            // "1c": until the end of the current day, China time
            LocalDate today = LocalDate.ofInstant(call.now(), AlipayTime.CHINA);
            return today.plusDays(1).atStartOfDay(AlipayTime.CHINA).toInstant();
        }
        Matcher m = TIMEOUT_EXPRESS.matcher(timeoutExpress);
        Duration timeout = null;
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            timeout = switch (m.group(2)) {
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        if (timeout == null || timeout.compareTo(Duration.ofMinutes(1)) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw TradeRejected.invalidParameter("timeout_express must be 1m to 15d, like 90m, 2h, 1d or 1c");
        }
        return call.now().plus(timeout);
    }
}
