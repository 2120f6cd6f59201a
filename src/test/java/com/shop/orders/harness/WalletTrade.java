package com.shop.orders.harness;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.shop.orders.sandbox.alipay.SandboxTradeStatus;
import com.shop.orders.sandbox.alipay.TradeSnapshot;
import com.shop.orders.sandbox.wechat.WechatTradeView;

/**
 * One trade as its wallet's sandbox holds it, whichever wallet: whether the buyer paid it, for how much, how much of
 * it went back in how many refunds, and whether its code can still be paid. What the invariants compare the
 * service's payment and refund rows with.
 *
 * @param payable the buyer can still pay it: unpaid, not closed, not past its expiry
 * @param made    its refunds, in the order the wallet took them
 */
record WalletTrade(String channel, String outTradeNo, boolean paid, BigDecimal total, BigDecimal refunded,
                   int refunds, boolean payable, String state, List<Refund> made) {

    /**
     * One refund of the trade at its wallet, under the number the merchant gave it.
     *
     * @param done the money went back (Alipay's are done when taken; WeChat's once SUCCESS, not while PROCESSING)
     */
    record Refund(String requestNo, BigDecimal amount, boolean done) {
    }

    /** The refund under this number; empty when the wallet has none. */
    Optional<Refund> refund(String requestNo) {
        return made.stream().filter(r -> r.requestNo().equals(requestNo)).findFirst();
    }

    static final String ALIPAY = "alipay";
    static final String WECHAT = "wechat";

    /** The order's trade number at the wallet: Alipay's is the order number, WeChat's the order number and "W". */
    static String outTradeNo(String channel, String orderNo) {
        return WECHAT.equals(channel) ? orderNo + "W" : orderNo;
    }

    /** What the wallet holds of the buyer's money on this trade: paid less refunded, nothing for an unpaid trade. */
    BigDecimal kept() {
        return paid ? total.subtract(refunded) : BigDecimal.ZERO;
    }

    /** The trade at the channel's sandbox; empty when that wallet has none under this number. */
    static Optional<WalletTrade> at(ServiceStack stack, String channel, String outTradeNo) {
        return switch (channel) {
            case ALIPAY -> stack.sandbox().trades().trade(outTradeNo).map(WalletTrade::of);
            case WECHAT -> stack.wechatSandbox().trades().trade(outTradeNo).map(WalletTrade::of);
            default -> throw new IllegalArgumentException("no sandbox for channel " + channel);
        };
    }

    static WalletTrade of(TradeSnapshot t) {
        boolean open = t.status() == SandboxTradeStatus.AWAITING_SCAN || t.status() == SandboxTradeStatus.WAIT_BUYER_PAY;
        return new WalletTrade(ALIPAY, t.outTradeNo(), t.paidAt() != null, t.totalAmount(),
                t.refundedAmount() == null ? BigDecimal.ZERO : t.refundedAmount(), t.refunds().size(),
                open && Instant.now().isBefore(t.expiresAt()), t.status().name(),
                t.refunds().stream().map(r -> new Refund(r.requestNo(), r.amount(), true)).toList());
    }

    static WalletTrade of(WechatTradeView t) {
        // WeChat counts fen; its refunded includes refunds still processing (the buyer's money on its way back).
        return new WalletTrade(WECHAT, t.outTradeNo(), t.transactionId() != null, BigDecimal.valueOf(t.total(), 2),
                BigDecimal.valueOf(t.refunded(), 2), t.refunds().size(),
                "NOTPAY".equals(t.tradeState()) && Instant.now().isBefore(t.expiresAt()), t.tradeState(),
                t.refunds().stream().map(r -> new Refund(r.outRefundNo(), BigDecimal.valueOf(r.amount(), 2),
                        "SUCCESS".equals(r.status()))).toList());
    }

    @Override
    public String toString() {
        return channel + " " + outTradeNo + " " + state + (paid ? " paid " + total.toPlainString() : " unpaid")
                + (refunds > 0 ? ", refunded " + refunded.toPlainString() + " in " + refunds : "");
    }
}
