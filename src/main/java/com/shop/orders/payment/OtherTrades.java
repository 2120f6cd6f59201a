package com.shop.orders.payment;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.shop.orders.resilience.MutinyBridge;

import io.vertx.core.Vertx;

/**
 * Once a trade has paid an order, closes the order's other trades (the buyer had asked for a second wallet's code),
 * so that nobody pays one order twice. Best effort, retried: a trade that stays open and is paid anyway is refunded in
 * full by {@link PaymentConfirmation}.
 */
@ApplicationScoped
public class OtherTrades {

    private static final Logger LOG = Logger.getLogger(OtherTrades.class);

    private final TradeCloser closer;
    private final PaymentConfig config;
    private final Vertx vertx;

    public OtherTrades(TradeCloser closer, PaymentConfig config, Vertx vertx) {
        this.closer = closer;
        this.config = config;
        this.vertx = vertx;
    }

    void onAccepted(@Observes TradeAccepted accepted) {
        MutinyBridge.start(vertx, () -> closer.closeOthers(accepted.orderId(), accepted.outTradeNo())
                .onFailure().retry().withBackOff(config.closeOthersBackoff()).atMost(config.closeOthersRetries()),
                ignored -> {
                }, failure -> LOG.warnf("Order %s is paid; its other trades could not all be closed (%s): a payment"
                        + " on one of them will be refunded", accepted.orderNo(), failure.toString()));
    }
}
