package com.shop.orders.payment.alipay;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

import com.shop.orders.payment.PaymentChannel;
import com.shop.orders.payment.RefundAnswer;
import com.shop.orders.payment.Trade;
import com.shop.orders.payment.TradeClosing;
import com.shop.orders.payment.alipay.AlipayReplies.CancelResult;

import io.smallrye.mutiny.Uni;

/**
 * Alipay as a {@link PaymentChannel}: face-to-face precreate, and its trades closed the way Alipay needs. A QR code
 * nobody scanned has no trade that {@code close} could close, yet stays payable until it expires: it is voided by
 * {@code cancel}, which refunds the buyer itself when the trade was paid meanwhile.
 */
@ApplicationScoped
@Named(AlipayChannel.NAME)
public class AlipayChannel implements PaymentChannel {

    /** The channel's name in the API. */
    public static final String NAME = "alipay";

    private final AlipayGateway alipay;

    public AlipayChannel(AlipayGateway alipay) {
        this.alipay = alipay;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The order number itself, as before there were channels: Alipay's records and bills of earlier trades match. */
    @Override
    public String outTradeNoOf(String orderNo) {
        return orderNo;
    }

    @Override
    public String orderNoOf(String outTradeNo) {
        return outTradeNo;
    }

    @Override
    public Uni<String> offer(String outTradeNo, BigDecimal amount, String subject, Instant payBy) {
        return alipay.precreate(outTradeNo, amount, subject, payBy);
    }

    @Override
    public Uni<Void> withdraw(String outTradeNo) {
        return alipay.cancel(outTradeNo).replaceWithVoid();
    }

    @Override
    public Uni<Trade> query(String outTradeNo) {
        return alipay.query(outTradeNo);
    }

    @Override
    public Uni<TradeClosing> close(String outTradeNo) {
        return alipay.close(outTradeNo).chain(result -> switch (result) {
            case CLOSED -> Uni.createFrom().item(TradeClosing.closed());
            // Never scanned, yet the QR code stays payable until it expires: void it. Cancel finds no QR code
            // either when the precreate never got one (refused just before the deadline, or never sent): nothing
            // can be paid, the trade is closed as it is.
            case NOT_EXIST -> alipay.cancel(outTradeNo).map(cancel -> cancel == CancelResult.REFUNDED
                    ? TradeClosing.reversed()
                    : TradeClosing.closed());
            // Closed already (expired at the deadline), or paid: the query tells.
            case NOT_CLOSABLE -> closedOrPaid(outTradeNo);
        });
    }

    private Uni<TradeClosing> closedOrPaid(String outTradeNo) {
        return alipay.query(outTradeNo).chain(trade -> switch (trade.state()) {
            case PAID -> Uni.createFrom().item(TradeClosing.paid(trade));
            case CLOSED, NOT_FOUND -> Uni.createFrom().item(TradeClosing.closed());
            case WAITING -> Uni.createFrom().failure(new IllegalStateException(
                    "Alipay refused to close the open trade of " + outTradeNo));
        });
    }

    @Override
    public Uni<RefundAnswer> refund(String outTradeNo, BigDecimal tradeAmount, BigDecimal amount, String refundNo) {
        return alipay.refund(outTradeNo, amount, refundNo);
    }

    @Override
    public Uni<Boolean> refundMade(String outTradeNo, String refundNo) {
        return alipay.refundMade(outTradeNo, refundNo);
    }
}
