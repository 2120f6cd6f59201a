package com.shop.orders.payment;

import java.time.Clock;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import com.shop.orders.order.Order;
import com.shop.orders.order.OrderEvents;
import com.shop.orders.order.OrderNotFoundException;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.sql.UniqueViolation;
import com.shop.orders.web.ProblemException;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Offers an order's QR code on the channel the buyer picked. Each channel's wallet is asked for one trade per order;
 * later calls return the stored code, and asking on another channel opens a second trade (the buyer switched
 * wallets), both payable until the order is paid or closed. The pay deadline is the order's and never moves, so
 * asking again neither extends it nor starts anything new.
 */
@ApplicationScoped
public class PaymentService {

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final PaymentChannels channels;
    private final QrCodeRenderer qrCodes;
    private final QrImageLinks links;
    private final Event<PaymentOffered> offered;
    private final OrderEvents events;
    private final Clock clock;

    public PaymentService(OrderRepository orders, PaymentRepository payments, PaymentChannels channels,
            QrCodeRenderer qrCodes, QrImageLinks links, Event<PaymentOffered> offered, OrderEvents events,
            Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.channels = channels;
        this.qrCodes = qrCodes;
        this.links = links;
        this.offered = offered;
        this.events = events;
        this.clock = clock;
    }

    /** The order's QR code on the channel named ({@code null}: the default, Alipay as before channels existed). */
    public Uni<PaymentView> requestPayment(long orderId, String memberId, String channelName) {
        String name = channelName == null ? channels.defaultChannel() : channelName;
        PaymentChannel channel = channels.offeredNamed(name).orElse(null);
        if (channel == null) {
            return Uni.createFrom().failure(new ProblemException(400, "Unknown payment channel", "This shop takes "
                    + String.join(", ", channels.offered()) + ", not " + name, Map.of("channels", channels.offered())));
        }
        // No database session is held while the wallet answers.
        return Panache.withSession(() -> findPayable(orderId, memberId)
                .chain(order -> payments.findByChannel(orderId, name).map(existing -> new OrderPayment(order, existing))))
                .chain(found -> (found.payment() != null && found.payment().qrCode != null
                        ? Uni.createFrom().item(found.payment())
                        : offer(found.order(), channel, found.payment()))
                        .map(payment -> new PaymentView(name, payment.qrCode, links.linkFor(orderId, name),
                                found.order().payDeadline)));
    }

    /** The stored PNG of the order's trade on the channel, for the owner. */
    public Uni<byte[]> qrImage(long orderId, String memberId, String channelName) {
        return Panache.withSession(() -> orders.findOwned(orderId, memberId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(orderId))
                .chain(order -> qrImage(orderId, channelName)));
    }

    /** The stored PNG, for the bearer of a valid signed link ({@code null} channel: the default one). */
    public Uni<byte[]> qrImage(long orderId, String channelName) {
        String name = channelName == null ? channels.defaultChannel() : channelName;
        // A trade recorded without a QR code (its wallet has not answered, or it was paid after its order closed) has none.
        return Panache.withSession(() -> payments.findByChannel(orderId, name))
                .map(payment -> payment == null ? null : payment.qrPng)
                .onItem().ifNull().failWith(() -> new ProblemException(404, "No QR code",
                        "No " + name + " payment has been requested for order " + orderId));
    }

    private Uni<Order> findPayable(long orderId, String memberId) {
        return orders.findOwned(orderId, memberId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(orderId))
                .invoke(this::requirePayable);
    }

    /**
     * Asks the wallet for the trade's code: the trade is recorded first (or was by an earlier request whose wallet did
     * not answer), so that a close, a query or a payment arriving meanwhile finds it.
     */
    private Uni<Payment> offer(Order order, PaymentChannel channel, Payment recorded) {
        return (recorded != null ? Uni.createFrom().item(recorded) : open(order, channel))
                .chain(payment -> channel.offer(payment.outTradeNo, order.totalAmount, "Order " + order.orderNo,
                                order.payDeadline)
                        // Asked just before the deadline, answered after it: the wallet refuses a QR code that would
                        // expire at once, and whatever it answered, the member can no longer pay.
                        .onFailure(PaymentGatewayException.class)
                        .transform(failure -> order.isPastDeadline(clock.instant()) ? windowOver(order) : failure)
                        .chain(qrCode -> store(order, channel, payment, qrCode)));
    }

    /** Records the trade while the order is pending, with its row locked: a close that committed first is seen here. */
    private Uni<Payment> open(Order order, PaymentChannel channel) {
        return Panache.withTransaction(() -> orders.findForUpdate(order.id).chain(current -> current != null
                        && current.isPending()
                        ? newPayment(order, channel).<Payment>persist()
                        : Uni.createFrom().failure(notPayable(order.id, current == null ? null : current.status))))
                // A concurrent request recorded it first.
                .onFailure(UniqueViolation::isCause)
                .recoverWithUni(() -> Panache.withSession(() -> payments.findByChannel(order.id, channel.name())));
    }

    /** Renders the QR code's image, then stores both. */
    private Uni<Payment> store(Order order, PaymentChannel channel, Payment payment, String qrCode) {
        return qrCodes.png(qrCode).chain(png -> store(order, channel, payment, qrCode, png));
    }

    /**
     * Stores the QR code only while the order is pending, with its row locked: a close that committed first is
     * seen here, and one that comes later closes the trade at its wallet. A code that arrives for an order closed
     * meanwhile is voided at the wallet (best effort: it was never shown to anyone) and not offered. Of two answers
     * to concurrent requests, the first stored is the one offered.
     */
    private Uni<Payment> store(Order order, PaymentChannel channel, Payment payment, String qrCode, byte[] png) {
        return Panache.withTransaction(() -> orders.findForUpdate(order.id).chain(current -> current != null
                        && current.isPending()
                        ? payments.storeQrCode(payment.id, qrCode, png).call(stored -> stored
                                ? events.record(order.orderNo, OrderEvents.Kind.QR_OFFERED, "offered", channel.name()
                                        + " trade " + payment.outTradeNo + ", payable until " + order.payDeadline)
                                : Uni.createFrom().voidItem())
                        : Uni.createFrom().failure(notPayable(order.id, current == null ? null : current.status))))
                .onFailure(ProblemException.class)
                .call(() -> channel.withdraw(payment.outTradeNo).onFailure().recoverWithNull())
                .invoke(stored -> {
                    if (stored) {
                        offered.fire(new PaymentOffered(order.id, order.orderNo, order.createdAt, order.payDeadline));
                    }
                })
                .chain(() -> Panache.withSession(() -> payments.findById(payment.id)));
    }

    private Payment newPayment(Order order, PaymentChannel channel) {
        Payment payment = new Payment();
        payment.orderId = order.id;
        payment.orderNo = order.orderNo;
        payment.channel = channel.name();
        payment.outTradeNo = channel.outTradeNoOf(order.orderNo);
        payment.amount = order.totalAmount;
        payment.status = PaymentStatus.AWAITING_PAYMENT;
        payment.createdAt = clock.instant();
        return payment;
    }

    private void requirePayable(Order order) {
        if (!order.isPending()) {
            throw notPayable(order.id, order.status);
        }
        if (order.isPastDeadline(clock.instant())) {
            throw windowOver(order);
        }
    }

    private static ProblemException windowOver(Order order) {
        return new ProblemException(409, "Payment window over",
                "Order " + order.id + " had to be paid by " + order.payDeadline);
    }

    private static ProblemException notPayable(long orderId, OrderStatus status) {
        return new ProblemException(409, "Order not payable", "Order " + orderId + " is " + status,
                Map.of("orderStatus", String.valueOf(status)));
    }

    private record OrderPayment(Order order, Payment payment) {
    }
}
