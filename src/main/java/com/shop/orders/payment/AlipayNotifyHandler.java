package com.shop.orders.payment;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;
import com.shop.orders.order.OrderRepository;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;

/**
 * Checks an async notify before believing it: Alipay's signature, our app id, a known order
 * and the exact amount. Only then does a paid status confirm the payment.
 */
@ApplicationScoped
public class AlipayNotifyHandler {

    private static final Logger LOG = Logger.getLogger(AlipayNotifyHandler.class);
    private static final Set<String> PAID = Set.of("TRADE_SUCCESS", "TRADE_FINISHED");

    private final AlipayKeys keys;
    private final AlipayGatewayConfig config;
    private final OrderRepository orders;
    private final PaymentConfirmation confirmation;
    private final MeterRegistry registry;

    public AlipayNotifyHandler(AlipayKeys keys, AlipayGatewayConfig config, OrderRepository orders,
            PaymentConfirmation confirmation, MeterRegistry registry) {
        this.keys = keys;
        this.config = config;
        this.orders = orders;
        this.confirmation = confirmation;
        this.registry = registry;
    }

    /** True when handled (also for a duplicate), false when Alipay should not consider it delivered. */
    public Uni<Boolean> handle(Map<String, String> params) {
        String orderNo = params.get("out_trade_no");
        if (!signedByAlipay(params)) {
            return rejected("signature", orderNo);
        }
        if (!config.appId().equals(params.get("app_id"))) {
            return rejected("app_id", orderNo);
        }
        BigDecimal amount;
        try {
            amount = new BigDecimal(params.get("total_amount"));
        } catch (RuntimeException e) {
            return rejected("total_amount", orderNo);
        }
        return Panache.withSession(() -> orderNo == null ? Uni.createFrom().nullItem() : orders.findByOrderNo(orderNo))
                .chain(order -> {
                    if (order == null) {
                        return rejected("unknown_order", orderNo);
                    }
                    if (order.totalAmount.compareTo(amount) != 0) {
                        return rejected("amount", orderNo);
                    }
                    if (!PAID.contains(params.get("trade_status"))) {
                        return accepted("not_paid");
                    }
                    return confirmation.confirm(orderNo, params.get("trade_no"), amount, PaymentConfirmation.Source.NOTIFY)
                            .chain(outcome -> accepted(outcome.name().toLowerCase()));
                });
    }

    private boolean signedByAlipay(Map<String, String> params) {
        try {
            // rsaCheckV1 removes "sign" from the map it is given.
            return AlipaySignature.rsaCheckV1(new HashMap<>(params), keys.alipayPublicKey(), "UTF-8", "RSA2");
        } catch (AlipayApiException | RuntimeException e) {
            return false;
        }
    }

    private Uni<Boolean> rejected(String reason, String orderNo) {
        LOG.warnf("Alipay notify for %s rejected: %s", orderNo, reason);
        registry.counter("payments.notify", "result", "rejected", "reason", reason).increment();
        return Uni.createFrom().item(false);
    }

    private Uni<Boolean> accepted(String result) {
        registry.counter("payments.notify", "result", "accepted", "reason", result).increment();
        return Uni.createFrom().item(true);
    }
}
