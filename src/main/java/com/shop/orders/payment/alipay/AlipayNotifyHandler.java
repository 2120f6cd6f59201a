package com.shop.orders.payment.alipay;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.alipay.api.AlipayApiException;
import com.alipay.api.internal.util.AlipaySignature;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.payment.NotifiedPayments;
import com.shop.orders.payment.PaidTrade;
import com.shop.orders.payment.PaymentConfirmation;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Believes an async notify only once it is verified: Alipay's signature and our app id. Whether the
 * payment is accepted (known order, exact amount) is {@link PaymentConfirmation}'s decision, as for queries.
 * Nothing from a notify is logged before its signature is verified.
 */
@ApplicationScoped
public class AlipayNotifyHandler {

    private static final Logger LOG = Logger.getLogger(AlipayNotifyHandler.class);

    private final AlipayTrust trust;
    private final AlipayConfig config;
    private final NotifiedPayments notified;
    private final OrderEvents events;
    private final MeterRegistry registry;

    public AlipayNotifyHandler(AlipayTrust trust, AlipayConfig config, NotifiedPayments notified, OrderEvents events,
            MeterRegistry registry) {
        this.trust = trust;
        this.config = config;
        this.notified = notified;
        this.events = events;
        this.registry = registry;
    }

    /** True when handled (also for a duplicate), false when Alipay should not consider it delivered. */
    public Uni<Boolean> handle(Map<String, String> params) {
        if (!signedByAlipay(params)) {
            return rejected("signature", null);
        }
        String orderNo = params.get("out_trade_no");
        if (!config.appId().equals(params.get("app_id"))) {
            return rejected("app_id", orderNo);
        }
        boolean otherSeller = config.sellerId().filter(id -> !id.isBlank())
                .map(id -> !id.equals(params.get("seller_id"))).orElse(false);
        if (otherSeller) {
            return rejected("seller_id", orderNo);
        }
        TradeStatus status;
        BigDecimal amount;
        try {
            status = TradeStatus.parse(params.get("trade_status"));
            amount = new BigDecimal(params.get("total_amount"));
        } catch (RuntimeException e) {
            return rejected("unreadable", orderNo);
        }
        if (orderNo == null || !status.isPaid()) {
            return accepted("not_paid", orderNo, params);
        }
        return notified.confirm(new PaidTrade(orderNo, params.get("trade_no"), amount, null), orderNo)
                .chain(outcome -> switch (outcome) {
                    case AMOUNT_MISMATCH -> rejected("amount", orderNo);
                    case UNKNOWN_ORDER -> rejected("unknown_order", orderNo);
                    default -> accepted(outcome.name().toLowerCase(), orderNo, params);
                });
    }

    /**
     * Signed with Alipay's key: in certificate mode the key of its configured certificate or of one it re-issued
     * (learnt from its answers). {@code rsaCertCheckV1} reads the certificate from a file path only; with the
     * certificate given as content this is the same check: {@code rsaCheckV1} with the certificate's key.
     */
    private boolean signedByAlipay(Map<String, String> params) {
        for (String key : trust.verificationKeys()) {
            try {
                // rsaCheckV1 removes "sign" from the map it is given.
                if (AlipaySignature.rsaCheckV1(new HashMap<>(params), key, "UTF-8", "RSA2")) {
                    return true;
                }
            } catch (AlipayApiException | RuntimeException e) {
                return false;
            }
        }
        return false;
    }

    /** {@code orderNo} is named (and the order's timeline told) only when the notify's signature was verified. */
    private Uni<Boolean> rejected(String reason, String orderNo) {
        if (orderNo == null) {
            LOG.debugf("Alipay notify rejected: %s", reason);
        } else {
            LOG.warnf("Alipay notify for %s rejected: %s", orderNo, reason);
            events.note(orderNo, OrderEvents.Kind.NOTIFY, "rejected: " + reason, null);
        }
        registry.counter("payments.notify", "channel", AlipayChannel.NAME, "result", "rejected", "reason", reason)
                .increment();
        return Uni.createFrom().item(false);
    }

    private Uni<Boolean> accepted(String result, String orderNo, Map<String, String> params) {
        registry.counter("payments.notify", "channel", AlipayChannel.NAME, "result", "accepted", "reason", result)
                .increment();
        if (orderNo != null) {
            events.note(orderNo, OrderEvents.Kind.NOTIFY, result, params.get("trade_status"));
        }
        return Uni.createFrom().item(true);
    }
}
