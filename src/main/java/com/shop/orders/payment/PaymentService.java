package com.shop.orders.payment;

import java.time.Clock;
import java.util.List;
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
 * Offers an order's QR code. The wallet is asked once per order; later calls return the stored code.
 * The pay deadline is the order's and never moves, so asking again neither extends it nor starts
 * anything new.
 */
@ApplicationScoped
public class PaymentService {

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final PaymentChannel channel;
    private final QrCodeRenderer qrCodes;
    private final QrImageLinks links;
    private final Event<PaymentOffered> offered;
    private final OrderEvents events;
    private final Clock clock;

    public PaymentService(OrderRepository orders, PaymentRepository payments, PaymentChannel channel,
            QrCodeRenderer qrCodes, QrImageLinks links, Event<PaymentOffered> offered, OrderEvents events,
            Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.channel = channel;
        this.qrCodes = qrCodes;
        this.links = links;
        this.offered = offered;
        this.events = events;
        this.clock = clock;
    }

    /** The order's QR code on the channel named ({@code null}: Alipay, as before channels existed). */
    public Uni<PaymentView> requestPayment(long orderId, String memberId, String channelName) {
        if (channelName != null && !channelName.equals(channel.name())) {
            return Uni.createFrom().failure(new ProblemException(400, "Unknown payment channel", "This shop takes "
                    + channel.name() + ", not " + channelName, Map.of("channels", List.of(channel.name()))));
        }
        // No database session is held while the wallet answers.
        return Panache.withSession(() -> findPayable(orderId, memberId)
                .chain(order -> payments.findByOrderId(orderId).map(existing -> new OrderPayment(order, existing))))
                .chain(found -> qrCodeOf(found)
                        .map(qrCode -> new PaymentView(channel.name(), qrCode, links.linkFor(orderId),
                                found.order().payDeadline)));
    }

    /** The stored PNG, for the owner. */
    public Uni<byte[]> qrImage(long orderId, String memberId) {
        return Panache.withSession(() -> orders.findOwned(orderId, memberId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(orderId))
                .chain(order -> qrImage(orderId)));
    }

    /** The stored PNG, for the bearer of a valid signed link. */
    public Uni<byte[]> qrImage(long orderId) {
        // A payment recorded without a QR code (it came after its order closed, before the code was stored) has none.
        return Panache.withSession(() -> payments.findByOrderId(orderId))
                .map(payment -> payment == null ? null : payment.qrPng)
                .onItem().ifNull().failWith(() -> new ProblemException(404, "No QR code",
                        "No payment has been requested for order " + orderId));
    }

    private Uni<Order> findPayable(long orderId, String memberId) {
        return orders.findOwned(orderId, memberId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(orderId))
                .invoke(this::requirePayable);
    }

    private Uni<String> qrCodeOf(OrderPayment found) {
        return found.payment() != null
                ? Uni.createFrom().item(found.payment().qrCode)
                : precreate(found.order()).map(payment -> payment.qrCode);
    }

    private Uni<Payment> precreate(Order order) {
        return channel.offer(order.orderNo, order.totalAmount, "Order " + order.orderNo, order.payDeadline)
                // Asked just before the deadline, answered after it: the wallet refuses a QR code that would expire at
                // once, and whatever it answered, the member can no longer pay.
                .onFailure(PaymentGatewayException.class)
                .transform(failure -> order.isPastDeadline(clock.instant()) ? windowOver(order) : failure)
                .chain(qrCode -> store(order, qrCode))
                // A concurrent request stored its code first: the wallet gave both the same one.
                .onFailure(UniqueViolation::isCause).recoverWithNull()
                .chain(() -> Panache.withSession(() -> payments.findByOrderId(order.id)));
    }

    /**
     * Stores the QR code only while the order is pending, with its row locked: a close that committed first is
     * seen here, and one that comes later sees the stored code (and voids it). A code that arrives for an order
     * closed meanwhile is voided at the wallet (best effort: it was never shown to anyone) and not offered.
     */
    private Uni<Void> store(Order order, String qrCode) {
        return Panache.withTransaction(() -> orders.findForUpdate(order.id).chain(current -> current != null
                        && current.isPending()
                        ? newPayment(order, qrCode).persist().chain(() -> events.record(order.orderNo,
                                OrderEvents.Kind.QR_OFFERED, "offered", "payable until " + order.payDeadline))
                        : Uni.createFrom().failure(notPayable(order.id, current == null ? null : current.status))))
                .onFailure(ProblemException.class).call(() -> channel.withdraw(order.orderNo).onFailure().recoverWithNull())
                .invoke(() -> offered.fire(new PaymentOffered(order.id, order.orderNo, order.createdAt,
                        order.payDeadline)))
                .replaceWithVoid();
    }

    private Payment newPayment(Order order, String qrCode) {
        Payment payment = new Payment();
        payment.orderId = order.id;
        payment.orderNo = order.orderNo;
        payment.amount = order.totalAmount;
        payment.qrCode = qrCode;
        payment.qrPng = qrCodes.png(qrCode);
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
