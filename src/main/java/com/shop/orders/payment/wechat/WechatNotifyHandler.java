package com.shop.orders.payment.wechat;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import com.wechat.pay.java.service.payments.model.Transaction;

import com.shop.orders.order.OrderEvents;
import com.shop.orders.payment.NotifiedPayments;
import com.shop.orders.payment.PaidTrade;
import com.shop.orders.payment.PaymentConfirmation;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;

/**
 * Believes a payment notify only once it is verified ({@link WechatNotifyReader}) and for our merchant and app.
 * Whether the payment is accepted (known trade, exact amount) is {@link PaymentConfirmation}'s decision, as for
 * queries. Nothing from a notify is logged before its signature is verified.
 */
@ApplicationScoped
public class WechatNotifyHandler {

    private static final Logger LOG = Logger.getLogger(WechatNotifyHandler.class);
    private static final String PAYMENT_EVENT = "TRANSACTION.SUCCESS";

    private final WechatNotifyReader reader;
    private final WechatConfig config;
    private final NotifiedPayments notified;
    private final OrderEvents events;
    private final MeterRegistry registry;

    public WechatNotifyHandler(WechatNotifyReader reader, WechatConfig config, NotifiedPayments notified,
            OrderEvents events, MeterRegistry registry) {
        this.reader = reader;
        this.config = config;
        this.notified = notified;
        this.events = events;
        this.registry = registry;
    }

    /** Handled (also a duplicate, or a payment the core gave back), refused, or a failure of ours (WeChat retries). */
    public Uni<NotifyAnswer> handle(WechatNotifyRequest notify) {
        return reader.read(notify, Transaction.class).chain(reading -> reading instanceof WechatNotifyReader.Verified<?> v
                ? verified(v.eventType(), (Transaction) v.resource())
                : unverified((WechatNotifyReader.Refused) reading));
    }

    private Uni<NotifyAnswer> verified(String eventType, Transaction transaction) {
        String orderNo = WechatTradeNo.orderNoOf(transaction.getOutTradeNo());
        if (!PAYMENT_EVENT.equals(eventType)) {
            return accepted("other_event", orderNo, eventType);
        }
        if (!config.mchid().orElse("").equals(transaction.getMchid())) {
            return rejected(400, "mchid", "not this merchant's notify", orderNo);
        }
        if (!config.appid().orElse("").equals(transaction.getAppid())) {
            return rejected(400, "appid", "not this app's notify", orderNo);
        }
        if (transaction.getTradeState() != Transaction.TradeStateEnum.SUCCESS) {
            return accepted("not_paid", orderNo, String.valueOf(transaction.getTradeState()));
        }
        PaidTrade paid;
        try {
            paid = WechatReplies.paid(transaction);
        } catch (RuntimeException e) {
            return rejected(400, "unreadable", "transaction unreadable", orderNo);
        }
        return notified.confirm(paid, orderNo).chain(outcome -> switch (outcome) {
            case AMOUNT_MISMATCH -> rejected(400, "amount", "amount is not the order's total", orderNo);
            case UNKNOWN_ORDER -> rejected(400, "unknown_order", "no such trade", orderNo);
            // Paid now, paid before (a duplicate), refunded (paid after the order closed, or on another channel).
            default -> accepted(outcome.name().toLowerCase(), orderNo, transaction.getTradeState().name());
        });
    }

    private Uni<NotifyAnswer> unverified(WechatNotifyReader.Refused refused) {
        LOG.debugf("WeChat Pay notify rejected: %s", refused.reason());
        count("rejected", refused.reason());
        return Uni.createFrom().item(NotifyAnswer.refused(refused.status(), refused.message()));
    }

    /** Verified, so the order is named (and its timeline told). */
    private Uni<NotifyAnswer> rejected(int status, String reason, String message, String orderNo) {
        LOG.warnf("WeChat Pay notify for %s rejected: %s", orderNo, reason);
        note(orderNo, "rejected: " + reason, "wechat");
        count("rejected", reason);
        return Uni.createFrom().item(NotifyAnswer.refused(status, message));
    }

    private Uni<NotifyAnswer> accepted(String result, String orderNo, String tradeState) {
        note(orderNo, result, "wechat " + tradeState);
        count("accepted", result);
        return Uni.createFrom().item(NotifyAnswer.HANDLED);
    }

    private void note(String orderNo, String outcome, String detail) {
        if (orderNo != null) {
            events.note(orderNo, OrderEvents.Kind.NOTIFY, outcome, detail);
        }
    }

    private void count(String result, String reason) {
        registry.counter("payments.notify", "channel", WechatChannel.NAME, "result", result, "reason", reason)
                .increment();
    }
}
