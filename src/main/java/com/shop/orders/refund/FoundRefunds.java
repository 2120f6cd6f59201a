package com.shop.orders.refund;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.order.OrderRepository;
import com.shop.orders.payment.Payment;
import com.shop.orders.payment.PaymentChannels;
import com.shop.orders.payment.PaymentRepository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Refunds on a channel's bill that this service has not recorded as made. The wallet's refund query decides: a refund
 * it confirms is recorded as made, through the same completion as every other refund (the payment's refunded total,
 * the order's status, the "order refunded" event); one it does not confirm is left to people.
 */
@ApplicationScoped
public class FoundRefunds {

    private static final Logger LOG = Logger.getLogger(FoundRefunds.class);

    private final PaymentChannels channels;
    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final RefundRepository refunds;
    private final RefundOutcomes outcomes;
    private final Clock clock;

    public FoundRefunds(PaymentChannels channels, OrderRepository orders, PaymentRepository payments,
            RefundRepository refunds, RefundOutcomes outcomes, Clock clock) {
        this.channels = channels;
        this.orders = orders;
        this.payments = payments;
        this.refunds = refunds;
        this.outcomes = outcomes;
        this.clock = clock;
    }

    /**
     * The refund {@code requestNo} of {@code amount} that the channel's bill lists for its trade {@code outTradeNo}:
     * true once it is recorded as made (now or before), false when the wallet does not confirm it or this service
     * cannot record it (a refund without a request number, a trade this service does not have on the channel, a
     * refund recorded FAILED).
     */
    public Uni<Boolean> settle(String channel, String outTradeNo, String requestNo, BigDecimal amount) {
        if (requestNo == null || requestNo.isEmpty()) {
            return Uni.createFrom().item(Boolean.FALSE);
        }
        return channels.of(channel).refundMade(outTradeNo, requestNo).chain(made -> made
                ? Panache.withSession(() -> refunds.findByRequestNo(requestNo).chain(existing -> existing != null
                        ? Uni.createFrom().item(new Found(existing, null))
                        : payments.findByOutTradeNo(outTradeNo).map(trade -> new Found(null, trade))))
                        .chain(found -> found.refund() != null ? known(found.refund())
                                : found.trade() == null || !channel.equals(found.trade().channel)
                                        ? Uni.createFrom().item(Boolean.FALSE)
                                        : record(channel, found.trade().orderNo, outTradeNo, requestNo, amount))
                : Uni.createFrom().item(Boolean.FALSE));
    }

    /** A refund recorded under the number already, or else the trade it is of (null: none here). */
    private record Found(Refund refund, Payment trade) {
    }

    private Uni<Boolean> known(Refund existing) {
        return switch (existing.status) {
            case SUCCEEDED -> Uni.createFrom().item(Boolean.TRUE);
            case PENDING, ABNORMAL -> outcomes.made(existing.id).replaceWith(Boolean.TRUE);
            case FAILED -> {
                LOG.errorf("The wallet made refund %s of order %s, recorded FAILED here: left to people",
                        existing.outRequestNo, existing.orderNo);
                yield Uni.createFrom().item(Boolean.FALSE);
            }
        };
    }

    private Uni<Boolean> record(String channel, String orderNo, String outTradeNo, String requestNo, BigDecimal amount) {
        Instant now = clock.instant();
        // The order's row locked first, as every refund writer does, so that what follows reads the latest amounts.
        return Panache.withTransaction(() -> orders.findByOrderNoForUpdate(orderNo)
                .chain(order -> order == null ? Uni.createFrom().<RefundOutcomes.Completed>nullItem()
                        : payments.findByOutTradeNo(outTradeNo).chain(payment -> payment == null
                                || payment.paidAmount == null
                                ? Uni.createFrom().<RefundOutcomes.Completed>nullItem()
                                : outcomes.recordMade(order, new RefundBook.NewRefund(cause(channel),
                                        payment.outTradeNo, requestNo, amount, "on the " + channel
                                                + " bill, confirmed by the refund query",
                                        "service found " + requestNo, "", List.of()), now))))
                .invoke(outcomes::announce)
                .map(completed -> completed != null);
    }

    private static RefundCause cause(String channel) {
        return PaymentChannels.ORIGINAL.equals(channel) ? RefundCause.FOUND_AT_ALIPAY : RefundCause.FOUND_AT_WECHAT;
    }
}
