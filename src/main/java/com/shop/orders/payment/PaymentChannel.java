package com.shop.orders.payment;

import java.math.BigDecimal;
import java.time.Instant;

import io.smallrye.mutiny.Uni;

/**
 * A wallet the buyer pays with, as the payment core, the watch, the closer and the refunds see it. Each wallet's
 * code lives in a package of its own and implements this; nothing outside it knows the wallet's API. Every call
 * fails with a {@link PaymentGatewayException} when the wallet refused it or could not be reached.
 */
public interface PaymentChannel {

    /** The channel's name in the API: what a buyer's payment request names, e.g. "alipay". */
    String name();

    /**
     * The trade's number at the wallet for the order's trade on this channel: unique across channels, within every
     * wallet's rules (WeChat Pay: 6-32 of [0-9A-Za-z_-|*]).
     */
    String outTradeNoOf(String orderNo);

    /** The order a trade number of this channel belongs to: the inverse of {@link #outTradeNoOf}. */
    String orderNoOf(String outTradeNo);

    /** Offers a QR code (its content) for the trade; the wallet itself refuses payment after {@code payBy}. */
    Uni<String> offer(String outTradeNo, BigDecimal amount, String subject, Instant payBy);

    /** Voids a code that was never shown to anyone (the order closed while the wallet made it): best effort. */
    Uni<Void> withdraw(String outTradeNo);

    /** What the wallet knows of the trade now. */
    Uni<Trade> query(String outTradeNo);

    /** Makes the trade unpayable, or finds that the wallet has the money. */
    Uni<TradeClosing> close(String outTradeNo);

    /**
     * Refunds {@code amount} of the trade (paid {@code tradeAmount} in all) as the refund {@code refundNo}. Sent again
     * with the same number it refunds nothing twice: how an answer that did not arrive is retried. Fails when the
     * answer is not known, also when the wallet accepted the refund but has not made it yet (the refund query tells).
     */
    Uni<RefundAnswer> refund(String outTradeNo, BigDecimal tradeAmount, BigDecimal amount, String refundNo);

    /** Whether the refund {@code refundNo} of the trade was made (false also when there is no trade). */
    Uni<Boolean> refundMade(String outTradeNo, String refundNo);

    /**
     * What the wallet says of the refund {@code refundNo} now; fails while it has not decided (processing) or cannot
     * be asked. A wallet whose refunds are either made or not says only that.
     */
    default Uni<RefundFinding> findRefund(String outTradeNo, String refundNo) {
        return refundMade(outTradeNo, refundNo).map(made -> made ? RefundFinding.MADE : RefundFinding.NOT_TAKEN);
    }

    /** The wallet's rules on refunds of one trade (none by default). */
    default RefundLimits refundLimits() {
        return RefundLimits.NONE;
    }
}
