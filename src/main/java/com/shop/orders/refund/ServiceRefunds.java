package com.shop.orders.refund;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.order.Order;
import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.payment.PaidTrade;
import com.shop.orders.payment.Payment;
import com.shop.orders.payment.PaymentChannels;
import com.shop.orders.payment.PaymentRefunds;
import com.shop.orders.payment.PaymentRepository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The refunds the service makes by itself, as refunds like any other (one model, one path to the wallets). Each is
 * made once per trade: its idempotency key is the service's own (with a space, which no Idempotency-Key header can
 * hold).
 */
@ApplicationScoped
public class ServiceRefunds implements PaymentRefunds {

    private static final Logger LOG = Logger.getLogger(ServiceRefunds.class);
    static final String LATE_PAYMENT_KEY = "service late-payment";
    static final String DUPLICATE_PAYMENT_KEY = "service duplicate-payment";
    static final String CANCELLED_TRADE_KEY = "service trade-cancel";

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final RefundRepository refunds;
    private final RefundBook book;
    private final RefundOutcomes outcomes;
    private final RefundSender sender;
    private final RefundMetrics metrics;
    private final OrderEvents events;
    private final Clock clock;

    public ServiceRefunds(OrderRepository orders, PaymentRepository payments, RefundRepository refunds,
            RefundBook book, RefundOutcomes outcomes, RefundSender sender, RefundMetrics metrics, OrderEvents events,
            Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.refunds = refunds;
        this.book = book;
        this.outcomes = outcomes;
        this.sender = sender;
        this.metrics = metrics;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public Uni<Void> refundLatePayment(Order order, Payment trade, PaidTrade paid) {
        return refundAll(order, trade, paid, RefundCause.LATE_PAYMENT, "paid after the order had closed");
    }

    @Override
    public Uni<Void> refundDuplicatePayment(Order order, Payment trade, PaidTrade paid) {
        return refundAll(order, trade, paid, RefundCause.DUPLICATE_PAYMENT, "paid after another trade had paid the order");
    }

    /**
     * The request number is the trade's number with "-refund" (as earlier versions numbered an order's late-payment
     * refund: Alipay's trade is numbered as the order), so that a refund they made is not made again.
     */
    private Uni<Void> refundAll(Order order, Payment trade, PaidTrade paid, RefundCause cause, String reason) {
        Instant now = clock.instant();
        String outTradeNo = trade != null ? trade.outTradeNo : paid.outTradeNo();
        String key = serviceKey(cause, order, outTradeNo);
        return Panache.withTransaction(() -> orders.findForUpdate(order.id)
                .chain(locked -> refunds.findByKey(order.id, key).chain(existing -> existing != null
                        ? Uni.createFrom().<Refund>nullItem()
                        : (trade == null ? Uni.createFrom().<Payment>nullItem() : payments.findByIdLocked(trade.id))
                                .chain(current -> payments.recordUnacceptedPayment(current, order.id, order.orderNo,
                                        PaymentChannels.ORIGINAL, paid.tradeNo(), paid.amount(), now))
                                .call(() -> cause == RefundCause.DUPLICATE_PAYMENT
                                        ? events.record(order.orderNo, OrderEvents.Kind.PAID, "DUPLICATE",
                                                "trade " + outTradeNo + " paid too: refunded in full")
                                        : Uni.createFrom().voidItem())
                                .chain(() -> book.open(locked, new RefundBook.NewRefund(cause, outTradeNo,
                                        outTradeNo + "-refund", paid.amount(), reason, key, "", List.of()), now)))))
                .chain(opened -> {
                    if (opened == null) {
                        return Uni.createFrom().voidItem();
                    }
                    metrics.automatic(cause, trade != null ? trade.channel : PaymentChannels.ORIGINAL);
                    LOG.warnf("Order %s: trade %s was %s: refunding %s", order.orderNo, outTradeNo, reason,
                            paid.amount());
                    return sender.send(opened);
                });
    }

    /** Earlier versions made one late-payment refund per order, under the bare key: an Alipay trade keeps it. */
    private static String serviceKey(RefundCause cause, Order order, String outTradeNo) {
        String base = cause == RefundCause.LATE_PAYMENT ? LATE_PAYMENT_KEY : DUPLICATE_PAYMENT_KEY;
        return outTradeNo.equals(order.orderNo) ? base : base + " " + outTradeNo;
    }

    /** Recorded as made in the same transaction: Alipay's cancel answer is the refund's outcome. */
    @Override
    public Uni<Void> recordCancelRefund(Payment payment) {
        Instant now = clock.instant();
        String key = payment.outTradeNo.equals(payment.orderNo) ? CANCELLED_TRADE_KEY
                : CANCELLED_TRADE_KEY + " " + payment.outTradeNo;
        return Panache.withTransaction(() -> orders.findForUpdate(payment.orderId)
                .chain(order -> refunds.findByKey(order.id, key).chain(existing -> existing != null
                        ? Uni.createFrom().<RefundOutcomes.Completed>nullItem()
                        : payments.findByIdLocked(payment.id)
                                .chain(current -> payments.recordUnacceptedPayment(current, order.id, order.orderNo,
                                        payment.channel, null, payment.amount, now))
                                .chain(() -> outcomes.recordMade(order, new RefundBook.NewRefund(
                                        RefundCause.CANCELLED_TRADE, payment.outTradeNo, null, payment.amount,
                                        "the wallet refunded the trade it cancelled", key, "", List.of()), now)))))
                .invoke(outcomes::announce)
                .replaceWithVoid();
    }
}
