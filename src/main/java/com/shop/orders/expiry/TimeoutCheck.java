package com.shop.orders.expiry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.jboss.logging.Logger;

import com.shop.orders.order.Order;
import com.shop.orders.order.OrderRepository;
import com.shop.orders.payment.PaymentRepository;
import com.shop.orders.payment.TradeSettlement;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Answers one check-back for an order's timeout message: ROLLBACK once the order is paid or
 * closed (the message is no longer needed), COMMIT once its deadline has passed (the consumer
 * closes it), UNKNOW while waiting. When due, asks Alipay, so that a lost notify is found
 * within one check interval.
 */
@ApplicationScoped
public class TimeoutCheck {

    private static final Logger LOG = Logger.getLogger(TimeoutCheck.class);

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final TradeSettlement settlement;
    private final WatchStore watches;
    private final ExpiryConfig config;
    private final Clock clock;

    public TimeoutCheck(OrderRepository orders, PaymentRepository payments, TradeSettlement settlement,
            WatchStore watches, ExpiryConfig config, Clock clock) {
        this.orders = orders;
        this.payments = payments;
        this.settlement = settlement;
        this.watches = watches;
        this.config = config;
        this.clock = clock;
    }

    /** @param brokerCheckTimes how often the broker has checked this half message, this check included */
    public Uni<LocalTransactionState> decide(String orderNo, int brokerCheckTimes) {
        return Panache.withSession(() -> orders.findByOrderNo(orderNo))
                .chain(order -> {
                    if (order == null || !order.isPending()) {
                        return Uni.createFrom().item(LocalTransactionState.ROLLBACK_MESSAGE);
                    }
                    if (order.isPastDeadline(clock.instant())) {
                        return Uni.createFrom().item(LocalTransactionState.COMMIT_MESSAGE);
                    }
                    return queryAlipayIfDue(order).map(paid -> paid
                            ? LocalTransactionState.ROLLBACK_MESSAGE
                            : whileWaiting(brokerCheckTimes));
                });
    }

    /** UNKNOW keeps the broker checking, until one check before it would give up on the message. */
    public LocalTransactionState whileWaiting(int brokerCheckTimes) {
        return brokerCheckTimes >= config.brokerCheckMax() - 1
                ? LocalTransactionState.COMMIT_MESSAGE
                : LocalTransactionState.UNKNOW;
    }

    private Uni<Boolean> queryAlipayIfDue(Order order) {
        Instant now = clock.instant();
        return watches.recordCheck(order.orderNo)
                // Without Redis there is no query budget: decide from the database alone.
                .onFailure().invoke(e -> LOG.debugf("Watch state unavailable for %s: %s", order.orderNo, e.getMessage()))
                .onFailure().recoverWithNull()
                .chain(state -> state == null || !isQueryDue(order, state, now)
                        ? Uni.createFrom().item(false)
                        : Panache.withSession(() -> payments.existsForOrder(order.id))
                                .chain(offered -> !offered
                                        ? Uni.createFrom().item(false)
                                        : watches.recordQuery(order.orderNo, now)
                                                .chain(() -> settlement.confirmIfPaid(order))));
    }

    private boolean isQueryDue(Order order, WatchState state, Instant now) {
        return Duration.between(order.createdAt, now).compareTo(config.firstQueryAfter()) >= 0
                && state.queries() < config.maxQueries()
                && (state.lastQueryAt() == null
                        || Duration.between(state.lastQueryAt(), now).compareTo(config.queryEvery()) >= 0);
    }
}
