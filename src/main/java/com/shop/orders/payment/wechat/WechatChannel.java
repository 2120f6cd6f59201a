package com.shop.orders.payment.wechat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

import com.shop.orders.payment.PaymentChannel;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.RefundFinding;
import com.shop.orders.payment.RefundLimits;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeClosing;

import io.smallrye.mutiny.Uni;

/**
 * WeChat Pay Native as a {@link PaymentChannel}. Unlike Alipay's, a WeChat trade exists from the prepay on, scanned
 * or not, and closing it makes its code unpayable at once; WeChat refuses to close a paid trade (ORDERPAID), which the
 * query then describes. Its trades are numbered apart from the order ({@link #outTradeNoOf}).
 */
@ApplicationScoped
@Named(WechatChannel.NAME)
public class WechatChannel implements PaymentChannel {

    /** The channel's name in the API. */
    public static final String NAME = "wechat";

    /** Refunds one trade takes at most. */
    static final int MAX_REFUNDS = 50;
    /** How long after the payment a trade can be refunded. */
    static final Duration REFUNDABLE_FOR = Duration.ofDays(365);

    private final WechatGateway wechat;
    private final WechatConfig config;

    public WechatChannel(WechatGateway wechat, WechatConfig config) {
        this.wechat = wechat;
        this.config = config;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The trade's out_trade_no for an order: the order number and "W" ({@link WechatTradeNo}). */
    @Override
    public String outTradeNoOf(String orderNo) {
        return WechatTradeNo.of(orderNo);
    }

    @Override
    public String orderNoOf(String outTradeNo) {
        return WechatTradeNo.orderNoOf(outTradeNo);
    }

    @Override
    public Uni<String> offer(String outTradeNo, BigDecimal amount, String subject, Instant payBy) {
        // Deferred: an amount with fractions of a fen fails the Uni, not the caller.
        return Uni.createFrom().deferred(() -> wechat.prepay(outTradeNo, WechatReplies.fen(amount),
                WechatReplies.description(subject), WechatReplies.time(payBy)));
    }

    /** Closing voids the code whether it was scanned or not. */
    @Override
    public Uni<Void> withdraw(String outTradeNo) {
        return wechat.close(outTradeNo).replaceWithVoid();
    }

    @Override
    public Uni<Trade> query(String outTradeNo) {
        return wechat.query(outTradeNo);
    }

    @Override
    public Uni<TradeClosing> close(String outTradeNo) {
        return wechat.close(outTradeNo).chain(result -> switch (result) {
            case CLOSED -> Uni.createFrom().item(TradeClosing.closed());
            case PAID -> paidOrClosed(outTradeNo);
        });
    }

    /** WeChat would not close it as paid: the query says what it knows of the payment. */
    private Uni<TradeClosing> paidOrClosed(String outTradeNo) {
        return wechat.query(outTradeNo).chain(trade -> switch (trade.state()) {
            case PAID -> Uni.createFrom().item(TradeClosing.paid(trade));
            case CLOSED, NOT_FOUND -> Uni.createFrom().item(TradeClosing.closed());
            case WAITING -> Uni.createFrom().failure(new IllegalStateException(
                    "WeChat Pay refused to close the open trade " + outTradeNo + " as paid"));
        });
    }

    @Override
    public Uni<RefundAnswer> refund(String outTradeNo, BigDecimal tradeAmount, BigDecimal amount, String refundNo) {
        return Uni.createFrom().deferred(() -> wechat.refund(outTradeNo, WechatReplies.fen(tradeAmount),
                WechatReplies.fen(amount), refundNo));
    }

    @Override
    public Uni<Boolean> refundMade(String outTradeNo, String refundNo) {
        return wechat.findRefund(outTradeNo, refundNo).map(found -> found == RefundFinding.MADE);
    }

    @Override
    public Uni<RefundFinding> findRefund(String outTradeNo, String refundNo) {
        return wechat.findRefund(outTradeNo, refundNo);
    }

    /** WeChat's rules (its refund API's page): 50 refunds a trade, within a year of the payment, a minute apart. */
    @Override
    public RefundLimits refundLimits() {
        return new RefundLimits(MAX_REFUNDS, REFUNDABLE_FOR, config.refundInterval());
    }
}
