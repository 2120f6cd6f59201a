package com.shop.orders.payment;

import java.time.Clock;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.shop.orders.order.Order;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/** Brings our view of an order's payment in line with Alipay's before we decide its fate. */
@ApplicationScoped
public class TradeSettlement {

    private static final Logger LOG = Logger.getLogger(TradeSettlement.class);

    private final PaymentRepository payments;
    private final AlipayGateway alipay;
    private final PaymentConfirmation confirmation;
    private final MeterRegistry registry;
    private final Clock clock;

    public TradeSettlement(PaymentRepository payments, AlipayGateway alipay, PaymentConfirmation confirmation,
            MeterRegistry registry, Clock clock) {
        this.payments = payments;
        this.alipay = alipay;
        this.confirmation = confirmation;
        this.registry = registry;
        this.clock = clock;
    }

    /**
     * Before an unpaid order is closed: closes its Alipay trade so that no money can arrive any
     * more. True when the trade turns out to be paid; the order is then PAID, not to be closed.
     * Fails (retry later) when Alipay cannot tell.
     */
    public Uni<Boolean> closeTradeOrConfirmPaid(Order order) {
        return Panache.withSession(() -> payments.existsForOrder(order.id))
                .chain(offered -> !offered
                        ? Uni.createFrom().item(false)
                        : alipay.close(order.orderNo).chain(result -> switch (result) {
                            case CLOSED, NOT_EXIST -> Uni.createFrom().item(false);
                            // Already closed (expired at the deadline), or paid: the query tells.
                            case NOT_CLOSABLE -> alipay.query(order.orderNo).chain(trade -> switch (trade.status()) {
                                case TRADE_SUCCESS, TRADE_FINISHED -> confirmPaid(order, trade);
                                case TRADE_CLOSED, NOT_EXIST -> Uni.createFrom().item(false);
                                case WAIT_BUYER_PAY -> Uni.createFrom().failure(new IllegalStateException(
                                        "Alipay refused to close the open trade of " + order.orderNo));
                            });
                        }));
    }

    /** Asks Alipay; records the payment when Alipay has it (the notify was lost or is late). */
    public Uni<Boolean> confirmIfPaid(Order order) {
        return alipay.query(order.orderNo)
                .chain(trade -> trade.status().isPaid() ? confirmPaid(order, trade) : Uni.createFrom().item(false));
    }

    /**
     * Records a payment Alipay reports. An amount that differs from the order's is neither
     * accepted nor ignored: it fails, so the order is neither paid nor closed until someone looks.
     */
    private Uni<Boolean> confirmPaid(Order order, Trade trade) {
        if (trade.totalAmount() == null || trade.totalAmount().compareTo(order.totalAmount) != 0) {
            LOG.errorf("Alipay reports %s paid with %s, order total is %s: not accepted", order.orderNo,
                    trade.totalAmount(), order.totalAmount);
            return Uni.createFrom().failure(new IllegalStateException("Amount mismatch for " + order.orderNo));
        }
        return confirmation.confirm(order.orderNo, trade.tradeNo(), trade.totalAmount(), PaymentConfirmation.Source.QUERY)
                .invoke(outcome -> {
                    if (outcome == PaymentConfirmation.Outcome.PAID_NOW && trade.paidAt() != null) {
                        Duration delay = Duration.between(trade.paidAt(), clock.instant());
                        Timer.builder("payments.lost_notify.detection")
                                .description("Time from payment to its discovery by a trade query")
                                .register(registry).record(delay.isNegative() ? Duration.ZERO : delay);
                    }
                })
                .replaceWith(true);
    }
}
