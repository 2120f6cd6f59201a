package com.shop.orders.refund;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import com.shop.orders.order.Order;
import com.shop.orders.order.OrderNotFoundException;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.order.OrderStatus;
import com.shop.orders.payment.Payment;
import com.shop.orders.payment.PaymentChannels;
import com.shop.orders.payment.PaymentRepository;
import com.shop.orders.payment.RefundLimits;
import com.shop.orders.web.ProblemException;
import com.shop.orders.web.RequestDigest;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Refunds admins ask for. A request is checked and recorded (with its request number) in one transaction that holds
 * the order's row, so that concurrent requests for one order, on any replica, see each other's amounts and together
 * never take more than was paid, and keep within the wallet's rules (refunds per trade, how long after the payment,
 * how far apart: one asked for too soon after the previous is recorded now and sent when its time comes); then it is
 * sent to the wallet that took the money. The same Idempotency-Key answers the refund it made.
 */
@ApplicationScoped
public class RefundService {

    /** A refund as recorded, and whether the request repeated an earlier one (same key, same body). */
    public record Requested(RefundView refund, boolean replayed) {
    }

    private record Opened(Refund refund, boolean replayed) {

        /** A new refund whose time to be sent has come; one due later is the settler's. */
        boolean sendNow(Instant now) {
            return !replayed && !refund.sendAt.isAfter(now);
        }
    }

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final RefundRepository refunds;
    private final RefundBook book;
    private final RefundSender sender;
    private final PaymentChannels channels;
    private final Clock clock;

    public RefundService(OrderRepository orders, PaymentRepository payments, RefundRepository refunds,
            RefundBook book, RefundSender sender, PaymentChannels channels, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.refunds = refunds;
        this.book = book;
        this.sender = sender;
        this.channels = channels;
        this.clock = clock;
    }

    public Uni<Requested> request(long orderId, RefundRequest request, String idempotencyKey) {
        String requestHash = hash(request);
        Instant now = clock.instant();
        return Panache.withTransaction(() -> orders.findForUpdate(orderId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(orderId))
                .chain(order -> refunds.findByKey(orderId, idempotencyKey).chain(existing -> existing != null
                        ? Uni.createFrom().item(replay(existing, requestHash))
                        : open(order, request, idempotencyKey, requestHash, now))))
                .call(opened -> opened.sendNow(now) ? sender.send(opened.refund()) : Uni.createFrom().voidItem())
                .chain(opened -> find(orderId, opened.refund().id).map(view -> new Requested(view, opened.replayed())));
    }

    public Uni<List<RefundView>> list(long orderId) {
        return Panache.withSession(() -> orders.findById(orderId)
                .onItem().ifNull().failWith(() -> new OrderNotFoundException(orderId))
                .chain(order -> refunds.ofOrder(orderId))
                .chain(found -> refunds.restockLines(found.stream().map(r -> r.id).toList()).map(lines -> {
                    Map<Long, List<RestockLine>> byRefund = lines.stream()
                            .collect(Collectors.groupingBy(line -> line.refundId));
                    return found.stream().map(r -> RefundView.of(r, byRefund.getOrDefault(r.id, List.of()))).toList();
                })));
    }

    public Uni<RefundView> find(long orderId, long refundId) {
        return Panache.withSession(() -> refunds.findOfOrder(orderId, refundId)
                .onItem().ifNull().failWith(() -> new ProblemException(404, "Refund not found",
                        "Order " + orderId + " has no refund " + refundId))
                .chain(refund -> refunds.restockLines(refund.id).map(lines -> RefundView.of(refund, lines))));
    }

    private static Opened replay(Refund existing, String requestHash) {
        if (!existing.requestHash.equals(requestHash)) {
            throw new ProblemException(409, "Idempotency key reused",
                    "This Idempotency-Key was already used for a different refund of this order");
        }
        return new Opened(existing, true);
    }

    private Uni<Opened> open(Order order, RefundRequest request, String idempotencyKey, String requestHash,
            Instant now) {
        if (order.status != OrderStatus.PAID) {
            return Uni.createFrom().failure(new ProblemException(409, "Order not refundable",
                    "Order " + order.id + " is " + order.status + ": only a paid order can be refunded",
                    Map.of("orderStatus", order.status.name())));
        }
        return payments.findAccepted(order.id)
                .invoke(payment -> checkChannel(order, payment, request.channel()))
                .call(payment -> refunds.committed(payment.outTradeNo).invoke(committed -> {
                    BigDecimal refundable = payment.paidAmount.subtract(committed);
                    if (request.amount().compareTo(refundable) > 0) {
                        throw new ProblemException(409, "Refund exceeds payment", "Order " + order.id + " has "
                                + refundable + " left to refund of the " + payment.paidAmount + " paid",
                                Map.of("refundable", refundable));
                    }
                }))
                .call(() -> checkRestock(order, request.restockLines()))
                .chain(payment -> sendAt(order, payment, now).chain(sendAt -> refunds.countOfOrder(order.id)
                        .chain(count -> book.open(order, new RefundBook.NewRefund(RefundCause.REQUESTED,
                                payment.outTradeNo, order.orderNo + "-r" + (count + 1), request.amount(),
                                request.reason(), idempotencyKey, requestHash, request.restockLines()), now, sendAt))))
                .map(refund -> new Opened(refund, false));
    }

    /** The money goes back the way it came: a request naming another channel is a mistake, refused. */
    private static void checkChannel(Order order, Payment payment, String channel) {
        if (channel != null && !channel.equals(payment.channel)) {
            throw new ProblemException(409, "Refund on another channel", "Order " + order.id + " was paid with "
                    + payment.channel + ", not " + channel + ": it is refunded on " + payment.channel,
                    Map.of("paidWith", payment.channel));
        }
    }

    /**
     * Within the wallet's rules on refunds of a trade ({@link RefundLimits}: how many, how long after the payment), or
     * refused; answers when the refund is to be sent.
     */
    private Uni<Instant> sendAt(Order order, Payment payment, Instant now) {
        RefundLimits limits = channels.of(payment.channel).refundLimits();
        return checkLimits(order, payment, limits, now).chain(() -> sendAt(payment, limits, now));
    }

    private Uni<Void> checkLimits(Order order, Payment payment, RefundLimits limits, Instant now) {
        if (limits.refundableFor() != null && payment.paidAt != null
                && now.isAfter(payment.paidAt.plus(limits.refundableFor()))) {
            Instant deadline = payment.paidAt.plus(limits.refundableFor());
            return Uni.createFrom().failure(new ProblemException(409, "Refund period over", "Order " + order.id
                    + " was paid with " + payment.channel + " at " + payment.paidAt + ": it could be refunded until "
                    + deadline, Map.of("refundableUntil", deadline.toString())));
        }
        if (limits.maxRefunds() == 0) {
            return Uni.createFrom().voidItem();
        }
        return refunds.countOfTrade(payment.outTradeNo).invoke(count -> {
            if (count >= limits.maxRefunds()) {
                throw new ProblemException(409, "Too many refunds", "Order " + order.id + " has " + count
                        + " refunds on " + payment.channel + ", which takes at most " + limits.maxRefunds()
                        + " per payment", Map.of("maxRefunds", limits.maxRefunds()));
            }
        }).replaceWithVoid();
    }

    /**
     * Now, or when the wallet's least interval after the trade's latest refund (sent, or to be sent) is over: the
     * settler sends it then. The order's lock makes concurrent requests take their turns one after the other.
     */
    private Uni<Instant> sendAt(Payment payment, RefundLimits limits, Instant now) {
        if (limits.interval().isZero()) {
            return Uni.createFrom().item(now);
        }
        return refunds.lastSendOfTrade(payment.outTradeNo).map(last -> last == null
                || !last.plus(limits.interval()).isAfter(now) ? now : last.plus(limits.interval()));
    }

    /** Units come back only of SKUs the order holds, and at most what earlier refunds have not returned yet. */
    private Uni<Void> checkRestock(Order order, List<RefundRequest.Restock> restock) {
        if (restock.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < restock.size(); i++) {
            if (!seen.add(restock.get(i).skuId())) {
                return Uni.createFrom().failure(ProblemException.invalid("restock[" + i + "].skuId",
                        "listed twice"));
            }
        }
        return orders.items(order.id).chain(items -> refunds.restockedOf(order.id).invoke(restocked -> {
            Map<Long, Integer> held = new HashMap<>();
            items.forEach(item -> held.merge(item.skuId, item.quantity, Integer::sum));
            for (int i = 0; i < restock.size(); i++) {
                RefundRequest.Restock line = restock.get(i);
                if (!held.containsKey(line.skuId())) {
                    throw ProblemException.invalid("restock[" + i + "].skuId", "not in this order");
                }
                int restockable = held.get(line.skuId()) - restocked.getOrDefault(line.skuId(), 0);
                if (line.quantity() > restockable) {
                    throw new ProblemException(409, "Restock exceeds order", "Order " + order.id + " has "
                            + restockable + " units of SKU " + line.skuId() + " left to return to stock",
                            Map.of("skuId", line.skuId(), "restockable", restockable));
                }
            }
        })).replaceWithVoid();
    }

    /** Identifies the request's content, so that a reused key with a different body is refused. */
    private static String hash(RefundRequest request) {
        // The channel only when named, so that requests recorded before it existed hash as they did.
        return RequestDigest.of(request.amount().stripTrailingZeros().toPlainString() + "|"
                + (request.reason() == null ? "" : request.reason()) + "|"
                + request.restockLines().stream().sorted(Comparator.comparing(RefundRequest.Restock::skuId))
                        .map(line -> line.skuId() + "x" + line.quantity()).collect(Collectors.joining(","))
                + (request.channel() == null ? "" : "|" + request.channel()));
    }
}
