package com.shop.orders.refund;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.order.Order;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.payment.PaidTrade;
import com.shop.orders.payment.Payment;
import com.shop.orders.payment.PaymentRefunds;
import com.shop.orders.payment.PaymentRepository;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * The refunds the service makes by itself, as refunds like any other (one model, one path to Alipay). Each is made
 * once per order: its idempotency key is the service's own (with a space, which no Idempotency-Key header can hold).
 */
@ApplicationScoped
public class ServiceRefunds implements PaymentRefunds {

    private static final Logger LOG = Logger.getLogger(ServiceRefunds.class);
    static final String LATE_PAYMENT_KEY = "service late-payment";
    static final String CANCELLED_TRADE_KEY = "service trade-cancel";

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final RefundRepository refunds;
    private final RefundBook book;
    private final RefundOutcomes outcomes;
    private final RefundSender sender;
    private final Clock clock;

    public ServiceRefunds(OrderRepository orders, PaymentRepository payments, RefundRepository refunds,
            RefundBook book, RefundOutcomes outcomes, RefundSender sender, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.refunds = refunds;
        this.book = book;
        this.outcomes = outcomes;
        this.sender = sender;
        this.clock = clock;
    }

    /** The request number of earlier versions ("-refund"), so that a refund they made is not made again. */
    @Override
    public Uni<Void> refundLatePayment(Order order, PaidTrade trade) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> orders.findForUpdate(order.id)
                .chain(locked -> refunds.findByKey(order.id, LATE_PAYMENT_KEY).chain(existing -> existing != null
                        ? Uni.createFrom().<Refund>nullItem()
                        : payments.recordLatePayment(order.id, order.orderNo, trade.tradeNo(), trade.amount(), now)
                                .chain(() -> book.open(locked, new RefundBook.NewRefund(RefundCause.LATE_PAYMENT,
                                        order.orderNo + "-refund", trade.amount(), "paid after the order had closed",
                                        LATE_PAYMENT_KEY, "", List.of()), now)))))
                .chain(opened -> {
                    if (opened == null) {
                        return Uni.createFrom().voidItem();
                    }
                    LOG.warnf("Order %s was paid after it had been closed: refunding %s", order.orderNo,
                            trade.amount());
                    return sender.send(opened);
                });
    }

    /** Recorded as made in the same transaction: Alipay's cancel answer is the refund's outcome. */
    @Override
    public Uni<Void> recordCancelRefund(Payment payment) {
        Instant now = clock.instant();
        return Panache.withTransaction(() -> orders.findForUpdate(payment.orderId)
                .chain(order -> refunds.findByKey(order.id, CANCELLED_TRADE_KEY).chain(existing -> existing != null
                        ? Uni.createFrom().<RefundOutcomes.Completed>nullItem()
                        : payments.recordLatePayment(order.id, order.orderNo, null, payment.amount, now)
                                .chain(() -> outcomes.recordMade(order, new RefundBook.NewRefund(
                                        RefundCause.CANCELLED_TRADE, null, payment.amount,
                                        "Alipay refunded the trade it cancelled", CANCELLED_TRADE_KEY, "", List.of()),
                                        now)))))
                .invoke(outcomes::announce)
                .replaceWithVoid();
    }
}
